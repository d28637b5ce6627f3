import { ArgumentsHost, Catch, ExceptionFilter, Logger } from '@nestjs/common';
import type { Request, Response } from 'express';
import { ApiErrorCode } from '@edu/domain';
import { classifyError } from '@edu/http';

/** imsx_codeMinorFieldValue per error (OneRoster v1.1 binding, reference §8). */
const CODE_MINOR: Record<ApiErrorCode, string> = {
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
};

/** Every OneRoster error as the imsx status payload (`statusInfoSet`), never a stack trace. */
@Catch()
export class ImsxErrorFilter implements ExceptionFilter {
  private readonly logger = new Logger('Errors');

  catch(exception: unknown, host: ArgumentsHost): void {
    const http = host.switchToHttp();
    const res = http.getResponse<Response>();
    const req = http.getRequest<Request & { id?: string }>();
    const e = classifyError(exception);
    if (e.errorId) this.logger.error({ err: exception, errorId: e.errorId }, 'Unhandled error');
    if (res.headersSent) return;
    const minor = typeof e.details?.imsxCodeMinor === 'string' ? e.details.imsxCodeMinor : CODE_MINOR[e.code];
    const fieldName = typeof e.details?.parameter === 'string' ? e.details.parameter : 'TargetEndSystem';
    res
      .status(e.status)
      .set(e.headers)
      .json({
        statusInfoSet: [
          {
            imsx_codeMajor: 'failure',
            imsx_severity: 'error',
            imsx_messageRefIdentifier: String(req.id ?? ''),
            imsx_description: e.errorId ? `${e.message} (error id ${e.errorId})` : e.message,
            imsx_CodeMinor: { imsx_codeMinorField: [{ imsx_codeMinorFieldName: fieldName, imsx_codeMinorFieldValue: minor }] },
          },
        ],
      });
  }
}
