import { randomInt, randomUUID } from 'node:crypto';
import type { DataSource } from 'typeorm';
import type { Licence, RegionId } from '@edu/domain';
import {
  AppEntity,
  ConstituencyEntity,
  DeploymentEntity,
  DeveloperEntity,
  IdentityProviderEntity,
  TenantEntity,
  TenantUserEntity,
  UserEntity,
  VanityDomainEntity,
  type BrandConfiguration,
  type UserIdpIdentifier,
} from '@edu/persistence';
import { generateClientId, generateClientSecret, hashClientSecret } from '@edu/signing';

/** A person as the builder added them (the same profile at every tenant). */
export interface WorldUser {
  id: string;
  email: string;
  name: string;
  nickname: string;
  picture: string;
}

export interface CreatedApp {
  app: AppEntity;
  clientId: string;
  clientSecret: string;
}

/** Builders for the rows integration tests need, written straight to the spec's database. */
export class World {
  constructor(private readonly ds: DataSource) {}

  tenant(o: { name?: string; licences?: Licence[]; region?: RegionId; rootOrg?: string } = {}): Promise<TenantEntity> {
    return this.ds.getRepository(TenantEntity).save({
      name: o.name ?? `School ${randomUUID().slice(0, 6)}`,
      customerId: randomInt(1, 2_000_000_000),
      govtId: `G${randomInt(100000, 999999)}`,
      regionId: o.region ?? 'AU-NSW',
      licences: o.licences ?? ['data-operations'],
      rootOrgSourcedId: o.rootOrg ?? null,
    });
  }

  developer(name = 'Dev Co'): Promise<DeveloperEntity> {
    return this.ds.getRepository(DeveloperEntity).save({ name, email: `${randomUUID().slice(0, 8)}@dev.example` });
  }

  async app(owner: { type: 'tenant' | 'developer'; id: string }, name = 'Partner App'): Promise<CreatedApp> {
    const clientId = generateClientId('app');
    const clientSecret = generateClientSecret();
    const app = await this.ds.getRepository(AppEntity).save({
      name,
      ownerType: owner.type,
      ownerId: owner.id,
      authType: 'oauth2' as const,
      oauth2: { redirect_uris: ['https://app.example/callback'] },
      saml: null,
      clientId,
      clientSecretHash: hashClientSecret(clientSecret),
    });
    return { app, clientId, clientSecret };
  }

  async deploy(
    appId: string,
    tenantId: string,
    scope: string[],
    o: { withCredentials?: boolean } = {},
  ): Promise<{ deployment: DeploymentEntity; clientId?: string; clientSecret?: string }> {
    const clientId = o.withCredentials ? generateClientId('dep') : undefined;
    const clientSecret = o.withCredentials ? generateClientSecret() : undefined;
    const deployment = await this.ds.getRepository(DeploymentEntity).save({
      appId,
      tenantId,
      scope,
      clientId: clientId ?? null,
      clientSecretHash: clientSecret ? hashClientSecret(clientSecret) : null,
      settings: {},
    });
    return { deployment, clientId, clientSecret };
  }

  /** A tenant-specific OAuth 2.0 identity provider. */
  identityProvider(
    tenantId: string,
    o: { type?: 'oauth2' | 'lti1.3'; jit?: boolean } = {},
  ): Promise<IdentityProviderEntity> {
    const type = o.type ?? 'oauth2';
    return this.ds.getRepository(IdentityProviderEntity).save({
      tenantId,
      buttonGraphic: TEST_SVG,
      provisionJustInTime: o.jit ?? false,
      type,
      lti:
        type === 'lti1.3'
          ? {
              client_id: 'lti-client',
              oidc_authentication_url: 'https://lms.example/auth',
              oauth_access_token_url: 'https://lms.example/token',
              jwks_url: 'https://lms.example/jwks',
              issuer: 'https://lms.example',
              validate_lti_tokens_at_oidc_login: true,
              deployment_id: 'dep-1',
            }
          : null,
      oauth2:
        type === 'oauth2'
          ? {
              client_id: 'idp-client',
              authorization_url: 'https://idp.example/authorize',
              token_url: 'https://idp.example/token',
              scope: ['openid', 'email'],
              oidc_discovery: 'https://idp.example/.well-known/openid-configuration',
              jwks_url: 'https://idp.example/jwks',
            }
          : null,
    });
  }

  constituency(tenantId: string, id = 'staff', allowed: string[] = ['google']): Promise<ConstituencyEntity> {
    return this.ds.getRepository(ConstituencyEntity).save({
      tenantId,
      id,
      name: id[0].toUpperCase() + id.slice(1),
      enableSelfServiceProvisioning: false,
      allowedIdentityProviders: allowed,
    });
  }

  /**
   * A person added to each of `tenantIds` with the same profile, the way each tenant would have
   * written it: every tenant's record gets those of `idpIdentifiers` it can see (core providers
   * and its own providers).
   */
  async user(
    tenantIds: string[],
    o: { email?: string; constituencies?: string[]; idpIdentifiers?: UserIdpIdentifier[] } = {},
  ): Promise<WorldUser> {
    const tag = randomUUID().slice(0, 8);
    const profile = { name: `User ${tag}`, nickname: tag, picture: `https://cdn.school.example/${tag}.png` };
    const person = await this.ds.getRepository(UserEntity).save({ email: o.email ?? `user-${tag}@school.example` });
    const providers = await this.ds
      .getRepository(IdentityProviderEntity)
      .find({ select: { id: true, tenantId: true } });
    const owner = new Map(providers.map((p) => [p.id, p.tenantId]));
    for (const tenantId of tenantIds) {
      const visible = (o.idpIdentifiers ?? []).filter(
        (i) => !owner.has(i.idp_id.toLowerCase()) || owner.get(i.idp_id.toLowerCase()) === tenantId,
      );
      await this.ds.getRepository(TenantUserEntity).save({
        tenantId,
        userId: person.id,
        constituencies: o.constituencies ?? [],
        ...profile,
        idpIdentifiers: visible,
      });
    }
    return { id: person.id, email: person.email, ...profile };
  }

  vanityDomain(
    tenantId: string,
    domain = `portal-${randomUUID().slice(0, 6)}.school.example`,
  ): Promise<VanityDomainEntity> {
    return this.ds
      .getRepository(VanityDomainEntity)
      .save({ domain, tenantId, tenants: [tenantId], status: 'PENDING_DNS' as const, brandConfiguration: testBrand() });
  }
}

export const TEST_SVG =
  '<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"><rect width="10" height="10" fill="#123456"/></svg>';

/** A 1x1 transparent PNG, base64. */
export const TEST_PNG =
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==';

/** A complete, valid brand configuration (spec 2.8). */
export function testBrand(): BrandConfiguration {
  return {
    portal_name: 'Test Portal',
    primary_color: '#1d4ed8',
    secondary_color: '#f59e0b',
    typefaces: { sans: [{ name: 'Inter', source: 'google' }], serif: [{ name: 'Merriweather', source: 'google' }] },
    font_styles: { header: ['sans', 'font-semibold'], prose: ['serif'] },
    layout: 'center',
    logo: { light: TEST_SVG, dark: TEST_PNG },
    background: {
      color: { dark: '#0b1f3a', light: '#f5f7fa' },
      gradient: { from: '#0b1f3a', via: null, to: '#1d4ed8' },
      image: TEST_SVG,
      position: 'center',
      repeat: 'no-repeat',
      size: 'cover',
    },
  };
}
