import { HttpException, HttpStatus, type Logger } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { ApiError, ApiErrorCode, API_ERROR_STATUS, RetryLaterError } from '@edu/domain';
import { isDependencyOutage, OUTAGE_RETRY_AFTER_SECONDS } from './dependency-outage';
import { JsonShapeError } from './json-body-shape';

/** What every error renderer (JSON or OneRoster imsx) needs to know about a failure. */
export interface ClassifiedError {
  status: number;
  code: ApiErrorCode;
  message: string;
  details?: Record<string, unknown>;
  headers: Record<string, string>;
  /** Set for unexpected failures: logged with the stack, shown to the caller instead of the cause. */
  errorId?: string;
  /** Set when PostgreSQL or Redis is unavailable (503): worth a warning, not a bug report. */
  outage?: boolean;
}

const STATUS_TO_CODE: Record<number, ApiErrorCode> = {
  400: ApiErrorCode.InvalidRequest,
  401: ApiErrorCode.InvalidToken,
  403: ApiErrorCode.InsufficientScope,
  404: ApiErrorCode.NotFound,
  405: ApiErrorCode.MethodNotAllowed,
  409: ApiErrorCode.Conflict,
  413: ApiErrorCode.PayloadTooLarge,
  415: ApiErrorCode.UnsupportedMediaType,
  422: ApiErrorCode.Unprocessable,
  429: ApiErrorCode.RateLimited,
};

/** body-parser / raw-body errors carry `type` and `status` but are not HttpExceptions. */
interface BodyParserError {
  type: string;
  status?: number;
  statusCode?: number;
  expose?: boolean;
}

function isBodyParserError(e: unknown): e is BodyParserError {
  return typeof e === 'object' && e !== null && typeof (e as BodyParserError).type === 'string' && 'expose' in e;
}

const BODY_ERRORS: Record<string, [ApiErrorCode, string]> = {
  'entity.too.large': [ApiErrorCode.PayloadTooLarge, 'The request body is too large'],
  'entity.parse.failed': [ApiErrorCode.InvalidRequest, 'The request body is not valid JSON'],
  'charset.unsupported': [ApiErrorCode.UnsupportedMediaType, 'The request body charset is not supported'],
  'encoding.unsupported': [ApiErrorCode.UnsupportedMediaType, 'The request body encoding is not supported'],
  'request.aborted': [ApiErrorCode.InvalidRequest, 'The request was aborted'],
  'parameters.too.many': [ApiErrorCode.PayloadTooLarge, 'Too many form parameters'],
};

const unavailable = (message: string): ClassifiedError => ({
  status: 503,
  code: ApiErrorCode.ServiceUnavailable,
  message,
  headers: { 'Retry-After': String(OUTAGE_RETRY_AFTER_SECONDS) },
  outage: true,
});

/** Names of the failed checks in terminus' 503 body (`{status, info, error, details}`). */
function failedChecks(exception: HttpException): string[] {
  const body = exception.getResponse() as { error?: unknown } | string;
  return typeof body === 'object' && body.error && typeof body.error === 'object' ? Object.keys(body.error) : [];
}

/**
 * The one mapping from anything thrown to a status, code and safe message, shared by every error
 * renderer (JSON, imsx, OAuth). Bad input is 4xx; PostgreSQL/Redis outages are 503 with
 * Retry-After (never the caller's fault, never a 500); anything else is a 500 with an error id.
 */
export function classifyError(exception: unknown): ClassifiedError {
  // Nest wraps body-parser errors in an HttpException (cause = the original): classify the original.
  if (exception instanceof HttpException && isBodyParserError(exception.cause)) return classifyError(exception.cause);
  // Body-shape refusals before other body-parser errors: they look alike.
  if (exception instanceof JsonShapeError) {
    return { status: 400, code: ApiErrorCode.InvalidRequest, message: exception.message, headers: {} };
  }
  if (exception instanceof RetryLaterError) {
    // A deliberate refusal (rate limit, load shedding): its own Retry-After, not an outage.
    return {
      status: exception.status,
      code: exception.code,
      message: exception.message,
      headers: { 'Retry-After': String(exception.retryAfterSeconds) },
    };
  }
  if (exception instanceof ApiError) {
    const { wwwAuthenticate, ...rest } = exception.details ?? {};
    const classified: ClassifiedError = {
      status: exception.status,
      code: exception.code,
      message: exception.message,
      details: Object.keys(rest).length ? rest : undefined,
      headers: typeof wwwAuthenticate === 'string' ? { 'WWW-Authenticate': wwwAuthenticate } : {},
    };
    return exception.code === ApiErrorCode.ServiceUnavailable
      ? { ...unavailable(exception.message), details: classified.details }
      : classified;
  }
  if (isBodyParserError(exception)) {
    const known = BODY_ERRORS[exception.type];
    if (known) return { status: API_ERROR_STATUS[known[0]], code: known[0], message: known[1], headers: {} };
    const status = exception.status ?? exception.statusCode ?? 500;
    const code = STATUS_TO_CODE[status];
    if (code && status < 500) return { status, code, message: 'The request body could not be read', headers: {} };
  }
  if (exception instanceof HttpException && exception.getStatus() === HttpStatus.SERVICE_UNAVAILABLE) {
    // Readiness (terminus) answers 503 naming the checks that failed, not why (no internals).
    const failed = failedChecks(exception);
    return unavailable(
      failed.length ? `Not ready: ${failed.join(', ')} unavailable` : 'The service is temporarily unavailable',
    );
  }
  if (isDependencyOutage(exception)) return unavailable('The service is temporarily unavailable; retry later');
  if (exception instanceof HttpException) {
    const status = exception.getStatus();
    const code = STATUS_TO_CODE[status];
    if (code && status < 500) {
      const message = status === HttpStatus.NOT_FOUND ? 'No such route' : exception.message;
      return { status, code, message, headers: {} };
    }
  }
  return {
    status: 500,
    code: ApiErrorCode.Internal,
    message: 'An unexpected error occurred',
    headers: {},
    errorId: randomUUID(),
  };
}

/** What an error renderer logs: unexpected failures with their stack, outages as warnings. */
export function logClassifiedError(
  logger: Pick<Logger, 'error' | 'warn'>,
  exception: unknown,
  e: ClassifiedError,
): void {
  if (e.errorId) logger.error({ err: exception, errorId: e.errorId }, 'Unhandled error');
  else if (e.outage) logger.warn({ err: exception }, 'Dependency unavailable');
}
