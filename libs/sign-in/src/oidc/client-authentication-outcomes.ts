import type Provider from 'oidc-provider';
import type { errors, KoaContextWithOIDC } from 'oidc-provider';
import type { ClientAuthentications } from '@edu/rate-limit';
import { OIDC_ROUTES } from './provider-config';

/** The provider's routes where a client authenticates with its secret, by route name: their paths label the metric. */
const CLIENT_AUTH_ROUTES: Readonly<Record<string, string>> = {
  token: OIDC_ROUTES.token,
  introspection: OIDC_ROUTES.introspection,
  revocation: OIDC_ROUTES.revocation,
};

/**
 * Reports each client authentication of the provider (its token, introspection and revocation
 * endpoints) like `/oauth/token` does, before the answer is sent: the provider's error events say
 * that authentication failed (`invalid_client`), a middleware around its router reports it once
 * the route is done. A client the provider found is a registered one (the metric may name it).
 */
export function reportClientAuthentications(provider: Provider, authentications: ClientAuthentications): void {
  const failed = new WeakSet<object>();
  const mark = (ctx: KoaContextWithOIDC, err: errors.OIDCProviderError) => {
    if (err.error === 'invalid_client') failed.add(ctx);
  };
  provider.on('grant.error', mark).on('introspection.error', mark).on('revocation.error', mark);
  provider.use(async (ctx, next) => {
    await next();
    const oidc = (ctx as KoaContextWithOIDC).oidc as KoaContextWithOIDC['oidc'] | undefined;
    const endpoint = oidc?.route ? CLIENT_AUTH_ROUTES[oidc.route] : undefined;
    if (!endpoint) return;
    if (failed.has(ctx)) await authentications.failed(ctx.req, endpoint, oidc?.client?.clientId);
    else if (oidc?.client) await authentications.succeeded(ctx.req);
  });
}
