/**
 * Error codes shared by the JSON APIs (identity, alerts): body `{"error": code, "message": text}`.
 * Values are part of the public contract; do not rename.
 */
export enum ApiErrorCode {
  InvalidRequest = 'invalid_request',
  ValidationFailed = 'validation_failed',
  InvalidToken = 'invalid_token',
  InsufficientScope = 'insufficient_scope',
  LicenceRequired = 'licence_required',
  RegionMismatch = 'wrong_region',
  NotFound = 'not_found',
  Conflict = 'conflict',
  PayloadTooLarge = 'payload_too_large',
  UnsupportedMediaType = 'unsupported_media_type',
  Unprocessable = 'unprocessable_entity',
  MethodNotAllowed = 'method_not_allowed',
  RateLimited = 'rate_limited',
  Internal = 'internal_error',
  /** PostgreSQL or Redis is unavailable: 503 with Retry-After, the request may be retried. */
  ServiceUnavailable = 'service_unavailable',
}

export const API_ERROR_STATUS: Record<ApiErrorCode, number> = {
  [ApiErrorCode.InvalidRequest]: 400,
  [ApiErrorCode.ValidationFailed]: 400,
  [ApiErrorCode.InvalidToken]: 401,
  [ApiErrorCode.InsufficientScope]: 403,
  [ApiErrorCode.LicenceRequired]: 403,
  [ApiErrorCode.RegionMismatch]: 403,
  [ApiErrorCode.NotFound]: 404,
  [ApiErrorCode.MethodNotAllowed]: 405,
  [ApiErrorCode.Conflict]: 409,
  [ApiErrorCode.PayloadTooLarge]: 413,
  [ApiErrorCode.UnsupportedMediaType]: 415,
  [ApiErrorCode.Unprocessable]: 422,
  [ApiErrorCode.RateLimited]: 429,
  [ApiErrorCode.Internal]: 500,
  [ApiErrorCode.ServiceUnavailable]: 503,
};

/** A domain error with a public code; services throw these, HTTP filters map them. */
export class ApiError extends Error {
  constructor(
    readonly code: ApiErrorCode,
    message: string,
    readonly details?: Record<string, unknown>,
  ) {
    super(message);
    this.name = 'ApiError';
  }

  get status(): number {
    return API_ERROR_STATUS[this.code];
  }

  static notFound(what: string): ApiError {
    return new ApiError(ApiErrorCode.NotFound, `${what} not found`);
  }
}

/**
 * A deliberate refusal the client should retry after `retryAfterSeconds`: a spent rate-limit
 * budget (429) or a service shedding load (503). Rendered with `Retry-After`; not an outage and
 * not a bug, so it is not logged per request.
 */
export class RetryLaterError extends ApiError {
  constructor(
    code: ApiErrorCode.RateLimited | ApiErrorCode.ServiceUnavailable,
    message: string,
    readonly retryAfterSeconds: number,
  ) {
    super(code, message);
    this.name = 'RetryLaterError';
  }
}
