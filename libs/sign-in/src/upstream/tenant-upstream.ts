import * as oidc from 'openid-client';
import type { IdentityProviderEntity } from '@edu/persistence';
import type { KeyEncryption } from '@edu/signing';
import type { TenantEndpoints, UpstreamProvider } from './upstream-provider';

/** What sign-in uses of a tenant's own provider (the directory's entity, or the portal's batched read of it). */
export type OwnProvider = Pick<
  IdentityProviderEntity,
  'id' | 'type' | 'displayName' | 'provisionJustInTime' | 'oauth2' | 'clientSecretEncrypted' | 'updatedAt'
>;

/**
 * A tenant's `oauth2` provider as sign-in uses it, or undefined when it cannot run (no settings,
 * or a sealed secret this key cannot open). `openid` is added to the stored scope when missing:
 * sign-in needs the ID token.
 */
export function tenantUpstream(p: OwnProvider, kek: KeyEncryption, unnamedLabel: string): UpstreamProvider | undefined {
  const o = p.oauth2;
  if (p.type !== 'oauth2' || !o) return undefined;
  let clientSecret: string | undefined;
  if (p.clientSecretEncrypted) {
    try {
      clientSecret = kek.decrypt(p.clientSecretEncrypted);
    } catch {
      return undefined;
    }
  }
  const scope = o.scope.includes('openid') ? o.scope : ['openid', ...o.scope];
  return {
    id: p.id,
    kind: 'tenant',
    label: p.displayName ?? unnamedLabel,
    issuer: o.oidc_discovery,
    clientId: o.client_id,
    clientSecret,
    scope: scope.join(' '),
    provisionJustInTime: p.provisionJustInTime,
    endpoints: {
      discovery: o.oidc_discovery,
      authorization: o.authorization_url,
      token: o.token_url,
      jwks: o.jwks_url,
    },
    version: p.updatedAt ? new Date(p.updatedAt).toISOString() : undefined,
  };
}

/**
 * The client configuration of a tenant provider: the discovery document gives the issuer (the
 * ID token's `iss` must be it) and the provider's other metadata; the stored authorization, token
 * and JWKS URLs are used as stored. Every request goes through `fetch` (the SSRF guard).
 */
export async function tenantConfiguration(
  p: UpstreamProvider,
  endpoints: TenantEndpoints,
  fetch: oidc.CustomFetch,
  o: { allowHttp: boolean; timeout: number },
): Promise<oidc.Configuration> {
  // The browser is sent there with the code challenge, and comes back with a code: https in production.
  if (!o.allowHttp && !endpoints.authorization.startsWith('https://'))
    throw new Error('authorization_url must use https');
  const insecure = o.allowHttp ? [oidc.allowInsecureRequests] : [];
  const found = await oidc.discovery(new URL(endpoints.discovery), p.clientId, undefined, oidc.None(), {
    [oidc.customFetch]: fetch,
    execute: insecure,
    timeout: o.timeout,
  });
  const { supportsPKCE: _helper, ...meta } = found.serverMetadata();
  const expected = issuerOfDiscoveryUrl(endpoints.discovery);
  // Where the document sits names its issuer (OpenID Connect Discovery §4.3).
  if (expected !== undefined && trimSlash(meta.issuer) !== expected)
    throw new Error(`the discovery document names issuer ${meta.issuer}, not ${expected}`);
  const server = {
    ...meta,
    authorization_endpoint: endpoints.authorization,
    token_endpoint: endpoints.token,
    jwks_uri: endpoints.jwks,
  };
  const config = new oidc.Configuration(
    server,
    p.clientId,
    undefined,
    clientAuth(p.clientSecret, meta.token_endpoint_auth_methods_supported),
  );
  config[oidc.customFetch] = fetch;
  config.timeout = o.timeout;
  oidc.enableNonRepudiationChecks(config);
  for (const apply of insecure) apply(config);
  return config;
}

/** client_secret_basic unless the provider only takes client_secret_post; no secret: a public client. */
function clientAuth(secret: string | undefined, supported: string[] | undefined): oidc.ClientAuth {
  if (!secret) return oidc.None();
  if (supported && !supported.includes('client_secret_basic') && supported.includes('client_secret_post'))
    return oidc.ClientSecretPost(secret);
  return oidc.ClientSecretBasic(secret);
}

function issuerOfDiscoveryUrl(url: string): string | undefined {
  const i = url.indexOf('/.well-known/openid-configuration');
  return i > 0 ? trimSlash(url.slice(0, i)) : undefined;
}

const trimSlash = (s: string) => s.replace(/\/+$/, '');

/** The host of a provider's authorization URL: what tells two unnamed providers of one school apart. */
export function hostOf(url: string): string {
  try {
    return new URL(url).hostname;
  } catch {
    return 'your school’s provider';
  }
}
