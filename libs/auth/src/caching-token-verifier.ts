import { LRUCache } from 'lru-cache';
import type { Principal } from '@edu/domain';
import { TokenVerifier, type TokenVerifierOptions } from './token-verifier';

function expiryOf(token: string): number | undefined {
  try {
    const payload = JSON.parse(Buffer.from(token.split('.')[1] ?? '', 'base64url').toString('utf8')) as {
      exp?: unknown;
    };
    return typeof payload.exp === 'number' ? payload.exp * 1000 : undefined;
  } catch {
    return undefined;
  }
}

/**
 * A token verifier that remembers tokens it has accepted: the same token string (byte for byte)
 * maps to the same principal until the token's own `exp`, so the ES256 check is paid once per
 * token rather than once per request (a sync client reuses one token for thousands of pages).
 * Refusals are never remembered, and any altered token is a different string. Trade-off: a token
 * stays accepted until it expires even if its key leaves the JWKS meanwhile; keys stay published
 * for the token lifetime after retirement anyway (design: key rotation).
 */
export class CachingTokenVerifier extends TokenVerifier {
  private readonly accepted: LRUCache<string, { principal: Principal; expiresAt: number }>;

  constructor(
    options: TokenVerifierOptions,
    maxEntries: number,
    private readonly now: () => number = Date.now,
  ) {
    super(options);
    this.accepted = new LRUCache({ max: maxEntries });
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
