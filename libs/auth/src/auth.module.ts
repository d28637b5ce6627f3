import { DynamicModule, Global, Module } from '@nestjs/common';
import { APP_GUARD } from '@nestjs/core';
import { createRemoteJWKSet, type JWTVerifyGetKey } from 'jose';
import { ScopeCatalog, scopeBasesOf, type ScopeBases } from '@edu/domain';
import { AuthGuard, SCOPE_CATALOG, TOKEN_VERIFIER } from './auth.guard';
import { CachingTokenVerifier } from './caching-token-verifier';
import { TokenVerifier } from './token-verifier';

export interface AuthModuleOptions {
  issuer: string;
  audience: string;
  scopeBases: ScopeBases;
  /** Where verification keys come from: a remote JWKS URL, or a key getter (the issuer itself, tests). */
  keys: { jwksUrl: string; cacheSeconds: number } | { getKey: JWTVerifyGetKey };
  /** Remember up to this many accepted tokens until their `exp` (0 = verify every request). */
  verifiedTokenCacheEntries?: number;
}

export interface AuthModuleAsyncOptions {
  imports?: DynamicModule['imports'];
  inject?: unknown[];
  useFactory: (...deps: never[]) => AuthModuleOptions | Promise<AuthModuleOptions>;
}

const OPTIONS = Symbol('AUTH_OPTIONS');

function keyGetter(keys: AuthModuleOptions['keys']): JWTVerifyGetKey {
  if ('getKey' in keys) return keys.getKey;
  return createRemoteJWKSet(new URL(keys.jwksUrl), {
    cacheMaxAge: keys.cacheSeconds * 1000,
    cooldownDuration: 30_000,
    timeoutDuration: 5_000,
  });
}

/** Registers the global deny-by-default guard and the token verifier. */
@Global()
@Module({})
export class AuthModule {
  static forRootAsync(options: AuthModuleAsyncOptions): DynamicModule {
    return {
      module: AuthModule,
      imports: options.imports ?? [],
      providers: [
        { provide: OPTIONS, inject: (options.inject ?? []) as never[], useFactory: options.useFactory },
        {
          provide: TOKEN_VERIFIER,
          inject: [OPTIONS],
          useFactory: (o: AuthModuleOptions) => {
            const options = { keys: keyGetter(o.keys), issuer: o.issuer, audience: o.audience };
            return o.verifiedTokenCacheEntries
              ? new CachingTokenVerifier(options, o.verifiedTokenCacheEntries)
              : new TokenVerifier(options);
          },
        },
        {
          provide: SCOPE_CATALOG,
          inject: [OPTIONS],
          useFactory: (o: AuthModuleOptions) => new ScopeCatalog(o.scopeBases),
        },
        { provide: APP_GUARD, useClass: AuthGuard },
      ],
      exports: [TOKEN_VERIFIER, SCOPE_CATALOG],
    };
  }
}

/** Token verification settings of a resource server (oneroster, alerts) from its env. */
export interface ResourceServerAuthEnv {
  TOKEN_ISSUER: string;
  TOKEN_AUDIENCE: string;
  SCHEMA_BASE: string;
  ONEROSTER_SCOPE_BASE: string;
  ONEROSTER_V1P2_SCOPE_BASE?: string;
  JWKS_URL: string;
  JWKS_CACHE_SECONDS: number;
}

/** Accepted tokens a resource server remembers by default (per replica). */
export const DEFAULT_VERIFIED_TOKEN_CACHE = 10_000;

export function resourceServerAuth(
  env: ResourceServerAuthEnv,
  verifiedTokenCacheEntries = DEFAULT_VERIFIED_TOKEN_CACHE,
): DynamicModule {
  return AuthModule.forRootAsync({
    useFactory: () => ({
      verifiedTokenCacheEntries,
      issuer: env.TOKEN_ISSUER,
      audience: env.TOKEN_AUDIENCE,
      scopeBases: scopeBasesOf(env),
      keys: { jwksUrl: env.JWKS_URL, cacheSeconds: env.JWKS_CACHE_SECONDS },
    }),
  });
}
