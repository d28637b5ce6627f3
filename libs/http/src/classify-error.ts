import { HttpException, HttpStatus } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { ApiError, ApiErrorCode, API_ERROR_STATUS } from '@edu/domain';

/** What every error renderer (JSON or OneRoster imsx) needs to know about a failure. */
export interface ClassifiedError {
  status: number;
  code: ApiErrorCode;
  message: string;
  details?: Record<string, unknown>;
  headers: Record<string, string>;
  /** Set for unexpected failures: logged with the stack, shown to the caller instead of the cause. */
  errorId?: string;
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

export function classifyError(exception: unknown): ClassifiedError {
  if (exception instanceof ApiError) {
    const { wwwAuthenticate, ...rest } = exception.details ?? {};
    return {
      status: exception.status,
      code: exception.code,
      message: exception.message,
      details: Object.keys(rest).length ? rest : undefined,
      headers: typeof wwwAuthenticate === 'string' ? { 'WWW-Authenticate': wwwAuthenticate } : {},
    };
  }
  if (isBodyParserError(exception)) {
    const known = BODY_ERRORS[exception.type];
    if (known) return { status: API_ERROR_STATUS[known[0]], code: known[0], message: known[1], headers: {} };
  }
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
