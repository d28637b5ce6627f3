import { ApiError, ApiErrorCode } from '@edu/domain';

/** 409 for a message whose payload is gone (retention or expunge): nothing to show or send again. */
export const payloadPurged = (what: string): ApiError =>
  new ApiError(
    ApiErrorCode.Conflict,
    `${what}: the message's payload was purged after the tenant's retention period (or expunged); its delivery log remains`,
    { reason: 'payload_purged' },
  );
