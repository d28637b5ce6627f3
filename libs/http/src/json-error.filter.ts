import { ArgumentsHost, Catch, ExceptionFilter, Logger } from '@nestjs/common';
import type { Response } from 'express';
import { classifyError, logClassifiedError } from './classify-error';

/** Error body of the identity and alerts APIs (design §7): `{"error", "message"}`. */
@Catch()
export class JsonErrorFilter implements ExceptionFilter {
  private readonly logger = new Logger('Errors');

  catch(exception: unknown, host: ArgumentsHost): void {
    const res = host.switchToHttp().getResponse<Response>();
    const e = classifyError(exception);
    logClassifiedError(this.logger, exception, e);
    if (res.headersSent) return;
    res
      .status(e.status)
      .set(e.headers)
      .json({
        error: e.code,
        message: e.message,
        ...(e.details ?? {}),
        ...(e.errorId ? { error_id: e.errorId } : {}),
      });
  }
}
