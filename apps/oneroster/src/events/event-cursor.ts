import { createHmac, createSecretKey, timingSafeEqual, type KeyObject } from 'node:crypto';
import { ApiError, ApiErrorCode } from '@edu/domain';

/** A place in a tenant's change feed: after event `n` of batch `b` (batch 0: before everything). */
export interface FeedPosition {
  readonly b: string;
  readonly n: string;
}

/** Whose feed a cursor is of: a cursor of another tenant or deployment is refused. */
export interface FeedOwner {
  readonly tenantId: string;
  readonly deploymentId: string | null;
}

export const BEGINNING: FeedPosition = { b: '0', n: '0' };
/** `after=beginning`: every event still in the log (compacted past the horizon). */
export const FROM_BEGINNING = 'beginning';

const invalid = () =>
  new ApiError(
    ApiErrorCode.ValidationFailed,
    'after: not a cursor of this feed (cursors are issued by the feed itself)',
    {
      parameter: 'after',
    },
  );

/**
 * Opaque, unforgeable cursors: the position and its owner, signed (HMAC-SHA256 with
 * ROSTER_EVENTS_CURSOR_SECRET). They carry no expiry: the log is compacted, never cut, so an old
 * cursor always replays to the current state.
 */
export class FeedCursors {
  /** The HMAC key, imported once (a page of 1,000 events signs 1,000 cursors). */
  private readonly key: KeyObject | undefined;

  /** @param secret undefined: not configured (production without ROSTER_EVENTS_CURSOR_SECRET): every use is a 503. */
  constructor(secret: string | undefined) {
    this.key = secret === undefined ? undefined : createSecretKey(Buffer.from(secret, 'utf8'));
  }

  issue(owner: FeedOwner, at: FeedPosition): string {
    const payload = Buffer.from(JSON.stringify([1, owner.tenantId, owner.deploymentId, at.b, at.n])).toString(
      'base64url',
    );
    return `${payload}.${this.sign(payload)}`;
  }

  /** The position of a cursor this feed issued for `owner`; 400 for anything else. */
  read(owner: FeedOwner, cursor: string): FeedPosition {
    const [payload, signature, extra] = cursor.split('.');
    if (!payload || !signature || extra !== undefined || !this.verify(payload, signature)) throw invalid();
    let parts: unknown;
    try {
      parts = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8'));
    } catch {
      throw invalid();
    }
    if (!Array.isArray(parts) || parts.length !== 5 || parts[0] !== 1) throw invalid();
    const [, tenantId, deploymentId, b, n] = parts as [number, unknown, unknown, unknown, unknown];
    if (tenantId !== owner.tenantId || deploymentId !== owner.deploymentId) throw invalid();
    if (typeof b !== 'string' || typeof n !== 'string' || !/^\d{1,19}$/.test(b) || !/^\d{1,19}$/.test(n))
      throw invalid();
    return { b, n };
  }

  private sign(payload: string): string {
    if (this.key === undefined)
      throw new ApiError(
        ApiErrorCode.ServiceUnavailable,
        'The roster change feed is not configured on this host (ROSTER_EVENTS_CURSOR_SECRET)',
      );
    return createHmac('sha256', this.key).update(payload).digest('base64url').slice(0, 32);
  }

  private verify(payload: string, signature: string): boolean {
    const expected = Buffer.from(this.sign(payload));
    const given = Buffer.from(signature);
    return expected.length === given.length && timingSafeEqual(expected, given);
  }
}
