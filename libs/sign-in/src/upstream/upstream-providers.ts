import { Injectable } from '@nestjs/common';
import { isUuid } from '@edu/domain';
import { KeyEncryption } from '@edu/signing';
import { SignInEnv } from '../sign-in.env';
import { TenantProviderDirectory } from '../host';
import { memoRead } from '../reads/request-reads';
import { READ_KEYS } from '../reads/read-keys';
import { SignInRepository } from '../sign-in.repository';
import { hostOf, tenantUpstream, type OwnProvider } from './tenant-upstream';
import type { UpstreamProvider } from './upstream-provider';

const CORE_LABELS: Record<string, string> = { google: 'Google', microsoft: 'Microsoft' };

/** The core providers the operator configured (an issuer and a client id each). */
export function coreProvidersOf(env: SignInEnv): Map<string, UpstreamProvider> {
  const out = new Map<string, UpstreamProvider>();
  const entries: [string, string | undefined, string | undefined, string | undefined][] = [
    ['google', env.SIGNIN_GOOGLE_ISSUER, env.SIGNIN_GOOGLE_CLIENT_ID, env.SIGNIN_GOOGLE_CLIENT_SECRET],
    ['microsoft', env.SIGNIN_MICROSOFT_ISSUER, env.SIGNIN_MICROSOFT_CLIENT_ID, env.SIGNIN_MICROSOFT_CLIENT_SECRET],
  ];
  for (const [id, issuer, clientId, clientSecret] of entries) {
    if (!issuer || !clientId) continue;
    out.set(id, {
      id,
      kind: 'core',
      label: CORE_LABELS[id],
      issuer,
      clientId,
      clientSecret,
      scope: 'openid email profile',
      provisionJustInTime: false,
    });
  }
  return out;
}

/**
 * The providers a tenant's sign-in page offers: those its constituencies allow and that can run
 * (configured core providers, the tenant's own `oauth2` providers; `lti1.3` ones serve LTI launches).
 */
@Injectable()
export class UpstreamProviders {
  private readonly core: Map<string, UpstreamProvider>;

  constructor(
    env: SignInEnv,
    private readonly repo: SignInRepository,
    private readonly tenantProviders: TenantProviderDirectory,
    private readonly kek: KeyEncryption,
  ) {
    this.core = coreProvidersOf(env);
  }

  async forTenant(tenantId: string): Promise<UpstreamProvider[]> {
    const ids = await this.repo.providersInUse(tenantId);
    const own = ids.some(isUuid) ? await this.ownProviders(tenantId) : [];
    const byId = new Map(own.map((p) => [p.id, p]));
    const unnamed = await this.unnamedLabels(tenantId, own);
    const resolve = (id: string) => {
      if (!isUuid(id)) return this.core.get(id);
      const entity = byId.get(id.toLowerCase());
      return entity ? tenantUpstream(entity, this.kek, unnamed(entity)) : undefined;
    };
    return ids.map(resolve).filter((p): p is UpstreamProvider => p !== undefined);
  }

  /** The tenant's own providers, oldest first (primed by the portal's batched read). */
  private ownProviders(tenantId: string): Promise<OwnProvider[]> {
    return memoRead(READ_KEYS.ownProviders(tenantId), () => this.tenantProviders.list(tenantId));
  }

  /**
   * What a provider without a display name is called: the school's name when it is the school's
   * only such provider ("Sign in with Lion City Schools District"); among several, the host of
   * each one's authorization URL, which tells them apart (a display name says it better).
   */
  private async unnamedLabels(tenantId: string, own: OwnProvider[]): Promise<(p: OwnProvider) => string> {
    const unnamed = own.filter((p) => !p.displayName && p.oauth2);
    const byHost = (p: OwnProvider) => (p.oauth2 ? hostOf(p.oauth2.authorization_url) : 'your school');
    if (unnamed.length !== 1) return byHost;
    const school = (await this.repo.tenant(tenantId))?.name;
    return (p) => school ?? byHost(p);
  }

  async find(tenantId: string, id: string): Promise<UpstreamProvider | undefined> {
    // A core provider needs no read of the tenant's own ones: only whether it is in use there.
    if (!isUuid(id)) return (await this.repo.providersInUse(tenantId)).includes(id) ? this.core.get(id) : undefined;
    return (await this.forTenant(tenantId)).find((p) => p.id === id);
  }
}
