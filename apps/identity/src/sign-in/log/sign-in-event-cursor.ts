import { ApiError, ApiErrorCode, isUuid } from '@edu/domain';
import type { SignInEventCursor } from './sign-in-event.repository';

/** Opaque paging cursor (as the alerts delivery log's): the time and id of the last event of a page. */
export function encodeCursor(c: SignInEventCursor): string {
  return Buffer.from(`${c.at}|${c.id}`).toString('base64url');
}

export function decodeCursor(raw: string): SignInEventCursor {
  const [at, id, extra] = Buffer.from(raw, 'base64url').toString('utf8').split('|');
  if (extra !== undefined || !id || !isUuid(id) || Number.isNaN(Date.parse(at ?? ''))) {
    throw new ApiError(ApiErrorCode.ValidationFailed, 'cursor: not a cursor this API issued', { fields: [{ field: 'cursor', problems: ['not a cursor this API issued'] }] });
  }
  return { at, id };
}
