import { ApiError, ApiErrorCode, isUuid } from '@edu/domain';
import type { DeliveryPageCursor } from './delivery.repository';

/** Opaque paging cursor: the creation time and id of the last delivery of a page. */
export function encodeCursor(c: DeliveryPageCursor): string {
  return Buffer.from(`${c.createdAt}|${c.id}`).toString('base64url');
}

export function decodeCursor(raw: string): DeliveryPageCursor {
  const [createdAt, id, extra] = Buffer.from(raw, 'base64url').toString('utf8').split('|');
  if (extra !== undefined || !id || !isUuid(id) || Number.isNaN(Date.parse(createdAt ?? ''))) {
    throw new ApiError(ApiErrorCode.ValidationFailed, 'cursor: not a cursor this API issued', { fields: [{ field: 'cursor', problems: ['not a cursor this API issued'] }] });
  }
  return { createdAt, id };
}
