import { Injectable } from '@nestjs/common';
import { createRemoteJWKSet, customFetch, type FetchImplementation, type JWTVerifyGetKey } from 'jose';
import type { WebhookTargetPolicy } from '@edu/domain';
import { SignInEnv } from '../sign-in.env';
import { guardedFetch, upstreamTargetPolicy } from '../upstream/guarded-fetch';

/** Keys are kept five minutes; a token naming a key not seen yet refetches at most every 30 s. */
const CACHE_MAX_AGE_MS = 5 * 60_000;
const COOLDOWN_MS = 30_000;
const TIMEOUT_MS = 10_000;
const MAX_SETS = 1000;

/**
 * The LMS's signing keys, from the provider's `jwks_url` through the SSRF guard (the same rule as
 * tenants' oauth2 providers: in production https to public addresses only), cached per replica.
 */
@Injectable()
export class LtiKeys {
  private readonly sets = new Map<string, JWTVerifyGetKey>();
  private fetch: FetchImplementation;

  constructor(env: SignInEnv) {
    this.fetch = this.fetchFor(upstreamTargetPolicy(env.NODE_ENV === 'production'));
  }

  /** The key set of `jwksUrl` (one per provider and URL: an edited provider gets a fresh cache). */
  keySet(providerId: string, jwksUrl: string): JWTVerifyGetKey {
    const key = `${providerId} ${jwksUrl}`;
    let set = this.sets.get(key);
    if (!set) {
      // One set per provider; a bound keeps edited or deleted providers' sets from piling up.
      if (this.sets.size >= MAX_SETS) this.sets.delete(this.sets.keys().next().value as string);
      set = createRemoteJWKSet(new URL(jwksUrl), {
        [customFetch]: this.fetch,
        cacheMaxAge: CACHE_MAX_AGE_MS,
        cooldownDuration: COOLDOWN_MS,
        timeoutDuration: TIMEOUT_MS,
      });
      this.sets.set(key, set);
    }
    return set;
  }

  /** Changes where key requests may go (tests apply the production rule to local addresses); clears the cache. */
  usePolicy(policy: WebhookTargetPolicy): void {
    this.fetch = this.fetchFor(policy);
    this.sets.clear();
  }

  private fetchFor(policy: WebhookTargetPolicy): FetchImplementation {
    const guarded = guardedFetch(policy);
    return (url, options) =>
      guarded(url, {
        method: options.method,
        headers: Object.fromEntries(options.headers),
        body: undefined,
        redirect: 'manual',
        signal: options.signal,
      });
  }
}
