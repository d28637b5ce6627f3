import { ArgumentsHost, Catch, type ExceptionFilter } from '@nestjs/common';
import type { Request, Response } from 'express';
import { RetryLaterError } from '@edu/domain';
import { JsonErrorFilter } from '@edu/http';
import { signInGroup } from './rate-limit-routes';
import { sendRetryLaterPage } from '@edu/sign-in';

/**
 * The identity service's errors: `{error, message}` JSON, except a sign-in page refused for now
 * (shed while the service is overloaded, or rate limited): a person's browser shows that, so it
 * is the portal's page with Retry-After. Controllers with their own filters (the portal's, the
 * token endpoint's) render their errors themselves.
 */
@Catch()
export class IdentityErrorFilter implements ExceptionFilter {
  private readonly json = new JsonErrorFilter();

  catch(exception: unknown, host: ArgumentsHost): void {
    const http = host.switchToHttp();
    const res = http.getResponse<Response>();
    if (exception instanceof RetryLaterError && !res.headersSent && signInGroup(http.getRequest<Request>().path)) {
      sendRetryLaterPage(res, exception);
      return;
    }
    this.json.catch(exception, host);
  }
}
