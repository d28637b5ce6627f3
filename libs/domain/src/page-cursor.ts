import { ApiError, ApiErrorCode } from './errors';
import { isUuid } from './tenancy';

/** Where the previous page of a keyset-paged list ended: its last row's time (as stored) and id. */
export interface PageCursor {
  at: string;
  id: string;
}

/** The opaque `cursor` value a list read hands out for the next page. */
export function encodePageCursor(c: PageCursor): string {
  return Buffer.from(`${c.at}|${c.id}`).toString('base64url');
}

/** A `cursor` query value back to its position; anything this API did not issue is a 400 naming `cursor`. */
export function decodePageCursor(raw: string): PageCursor {
  const [at, id, extra] = Buffer.from(raw, 'base64url').toString('utf8').split('|');
  if (extra !== undefined || !id || !isUuid(id) || Number.isNaN(Date.parse(at ?? ''))) {
    throw new ApiError(ApiErrorCode.ValidationFailed, 'cursor: not a cursor this API issued', {
      fields: [{ field: 'cursor', problems: ['not a cursor this API issued'] }],
    });
  }
  return { at, id };
}
