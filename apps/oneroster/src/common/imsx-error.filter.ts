import { ArgumentsHost, Catch, ExceptionFilter, Logger } from '@nestjs/common';
import type { Request, Response } from 'express';
import { ApiErrorCode } from '@edu/domain';
import { classifyError, logClassifiedError } from '@edu/http';
import {
  failureStatusInfo,
  HTTP_STATUS_BY_CODE_MINOR,
  isOneRosterQueryError,
  statusInfoSet,
  v1p2FailureStatusInfo,
  type ImsxCodeMinorValue,
  type StatusContext,
} from '@edu/oneroster-query';
import { apiOfPath } from './oneroster-api';

/** imsx_codeMinorFieldValue per error (OneRoster v1.1 binding, reference §8). Exhaustive by type. */
const CODE_MINOR: Readonly<Record<ApiErrorCode, ImsxCodeMinorValue>> = {
  [ApiErrorCode.InvalidRequest]: 'invaliddata',
  [ApiErrorCode.ValidationFailed]: 'invaliddata',
  [ApiErrorCode.InvalidToken]: 'unauthorisedrequest',
  [ApiErrorCode.InsufficientScope]: 'forbidden',
  [ApiErrorCode.LicenceRequired]: 'forbidden',
  [ApiErrorCode.RegionMismatch]: 'forbidden',
  [ApiErrorCode.NotFound]: 'unknownobject',
  [ApiErrorCode.MethodNotAllowed]: 'unsupportedoperation',
  [ApiErrorCode.Conflict]: 'invaliddata',
  [ApiErrorCode.PayloadTooLarge]: 'invaliddata',
  [ApiErrorCode.UnsupportedMediaType]: 'invaliddata',
  [ApiErrorCode.Unprocessable]: 'invaliddata',
  [ApiErrorCode.RateLimited]: 'server_busy',
  [ApiErrorCode.Internal]: 'internal_server_error',
  // 503 with Retry-After: the nearest codeMinor for "retry later" (reference §8.1 uses it for 429).
  [ApiErrorCode.ServiceUnavailable]: 'server_busy',
};

/** Operation name a handler stored on the request (for `imsx_operationRefIdentifier`). */
export const OPERATION_KEY = 'onerosterOperation';

/** One failure as the body of the binding the request path belongs to. */
function errorBody(
  path: string,
  codeMinor: ImsxCodeMinorValue,
  description: string,
  context: StatusContext,
  fieldName?: string,
): object {
  if (apiOfPath(path)?.version === 'v1p2') return v1p2FailureStatusInfo(codeMinor, description, fieldName);
  return statusInfoSet(failureStatusInfo(codeMinor, description, context, fieldName));
}

/**
 * Every OneRoster error as the imsx status payload, never a stack trace: in the `statusInfoSet`
 * envelope (reference §8.2) under v1.1, as one bare `imsx_StatusInfo` (v1.2 §7.2) under the v1.2
 * roots. Query errors (`OneRosterQueryError`) are 400 with their own codeMinor and parameter,
 * domain/auth errors by code, a database outage 503 `server_busy` with Retry-After, anything
 * unexpected 500 with an error id that is logged with the stack.
 */
@Catch()
export class ImsxErrorFilter implements ExceptionFilter {
  private readonly logger = new Logger('Errors');

  catch(exception: unknown, host: ArgumentsHost): void {
    const http = host.switchToHttp();
    const res = http.getResponse<Response>();
    const req = http.getRequest<Request & { id?: string | number } & Record<string, unknown>>();
    if (res.headersSent) return;
    const context = {
      messageRefIdentifier: String(req.id ?? ''),
      ...(typeof req[OPERATION_KEY] === 'string' ? { operationRefIdentifier: req[OPERATION_KEY] as string } : {}),
    };
    if (isOneRosterQueryError(exception)) {
      this.send(
        res,
        exception.httpStatus,
        errorBody(req.path, exception.code, exception.message, context, exception.parameter),
        {},
      );
      return;
    }
    if (exception instanceof URIError) {
      // The router could not percent-decode a path segment (e.g. `%FF`): a malformed request.
      this.send(
        res,
        400,
        errorBody(req.path, 'invaliddata', 'The request path is not valid percent-encoded UTF-8', context),
        {},
      );
      return;
    }
    const e = classifyError(exception);
    logClassifiedError(this.logger, exception, e);
    const minor =
      typeof e.details?.imsxCodeMinor === 'string'
        ? (e.details.imsxCodeMinor as ImsxCodeMinorValue)
        : CODE_MINOR[e.code];
    const fieldName = typeof e.details?.parameter === 'string' ? e.details.parameter : undefined;
    const headers: Record<string, string> = { ...e.headers };
    if (typeof e.details?.allow === 'string') headers['Allow'] = e.details.allow;
    const description = e.errorId ? `${e.message} (error id ${e.errorId})` : e.message;
    const status = e.status ?? HTTP_STATUS_BY_CODE_MINOR[minor];
    this.send(res, status, errorBody(req.path, minor, description, context, fieldName), headers);
  }

  private send(res: Response, status: number, body: object, headers: Record<string, string>): void {
    res.status(status).set(headers).json(body);
  }
}
