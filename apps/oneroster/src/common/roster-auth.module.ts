import { DynamicModule, Global, Module } from '@nestjs/common';
import { APP_GUARD } from '@nestjs/core';
import { createRemoteJWKSet } from 'jose';
import { AuthGuard, SCOPE_CATALOG, TOKEN_VERIFIER, TokenVerifier, type ResourceServerAuthEnv, type TokenVerifierOptions } from '@edu/auth';
import { ScopeCatalog, type Principal } from '@edu/domain';
import { LruCache } from './lru-cache';

/** Verified tokens remembered per replica (a sync client reuses one token for thousands of pages). */
const TOKEN_CACHE_ENTRIES = 10_000;

function expiryOf(token: string): number | undefined {
  try {
    const payload = JSON.parse(Buffer.from(token.split('.')[1] ?? '', 'base64url').toString('utf8')) as { exp?: unknown };
    return typeof payload.exp === 'number' ? payload.exp * 1000 : undefined;
  } catch {
    return undefined;
  }
}

/**
 * The platform's token verifier with a memory of tokens it has already accepted: the same
 * token string (byte for byte) maps to the same principal until the token's own `exp`, so an
 * ES256 signature check is paid once per token rather than once per request. Failures are never
 * remembered, and any altered token is a different string. Trade-off: a token stays accepted
 * until it expires even if its key leaves the JWKS meanwhile (the JWKS itself is cached too).
 */
export class CachingTokenVerifier extends TokenVerifier {
  private readonly accepted: LruCache<string, { principal: Principal; expiresAt: number }>;

  constructor(
    options: TokenVerifierOptions,
    maxEntries = TOKEN_CACHE_ENTRIES,
    private readonly now: () => number = Date.now,
  ) {
    super(options);
    this.accepted = new LruCache(maxEntries);
  }

  override async verify(token: string): Promise<Principal> {
    const hit = this.accepted.get(token);
    if (hit) {
      if (hit.expiresAt > this.now()) return hit.principal;
      this.accepted.delete(token);
    }
    const principal = await super.verify(token);
    const expiresAt = expiryOf(token);
    if (expiresAt !== undefined && expiresAt > this.now()) this.accepted.set(token, { principal, expiresAt });
    return principal;
  }
}

/**
 * Authentication of the rostering API: the shared deny-by-default `AuthGuard` of `@edu/auth`
 * with the same remote-JWKS verification as `resourceServerAuth`, through `CachingTokenVerifier`.
 */
@Global()
@Module({})
export class RosterAuthModule {
  static forRoot(env: ResourceServerAuthEnv): DynamicModule {
    const keys = createRemoteJWKSet(new URL(env.JWKS_URL), { cacheMaxAge: env.JWKS_CACHE_SECONDS * 1000, cooldownDuration: 30_000, timeoutDuration: 5_000 });
    return {
      module: RosterAuthModule,
      providers: [
        { provide: TOKEN_VERIFIER, useValue: new CachingTokenVerifier({ keys, issuer: env.TOKEN_ISSUER, audience: env.TOKEN_AUDIENCE }) },
        { provide: SCOPE_CATALOG, useValue: new ScopeCatalog({ schemaBase: env.SCHEMA_BASE, onerosterBase: env.ONEROSTER_SCOPE_BASE }) },
        { provide: APP_GUARD, useClass: AuthGuard },
      ],
      exports: [TOKEN_VERIFIER, SCOPE_CATALOG],
    };
  }
}
