import { ArgumentsHost, Catch, type ExceptionFilter, HttpException, Logger } from '@nestjs/common';
import type { Response } from 'express';
import { ApiError, RetryLaterError } from '@edu/domain';
import { UpstreamError } from '../upstream/upstream-client';
import { PAGE_HEADERS } from './html';
import { problemPage } from './pages';
import { retryLaterProblem } from './retry-later-page';

/** Sign-in pages fail as pages: a provider's fault, a rate limit, an overload or a bug, never JSON or a stack trace. */
@Catch()
export class PortalErrorFilter implements ExceptionFilter {
  private readonly logger = new Logger('SignIn');

  catch(err: unknown, host: ArgumentsHost): void {
    const res = host.switchToHttp().getResponse<Response>();
    if (res.headersSent) return;
    const { status, title, message } = this.describe(err);
    if (err instanceof RetryLaterError) res.setHeader('Retry-After', String(err.retryAfterSeconds));
    res.status(status).set(PAGE_HEADERS).send(problemPage({ title, message }));
  }

  private describe(err: unknown): { status: number; title: string; message: string } {
    if (err instanceof UpstreamError) {
      this.logger.warn(
        { event: 'sign_in', outcome: 'refused', reason: 'upstream_error', detail: err.detail },
        `sign-in refused: ${err.message}`,
      );
      return { status: 502, title: 'Sign-in failed', message: `${err.message}. Go back to the app and try again.` };
    }
    if (err instanceof RetryLaterError) return retryLaterProblem(err);
    if (err instanceof ApiError && err.status < 500)
      return { status: err.status, title: 'Sign-in error', message: err.message };
    if (err instanceof HttpException && err.getStatus() < 500)
      return { status: err.getStatus(), title: 'Sign-in error', message: 'The request was not valid.' };
    this.logger.error({ err }, 'sign-in page failed');
    return {
      status: 500,
      title: 'Something went wrong',
      message: 'The sign-in could not be completed. Go back to the app and try again.',
    };
  }
}
