import { ArgumentsHost, Catch, ExceptionFilter, Logger } from '@nestjs/common';
import type { Response } from 'express';
import { RetryLaterError } from '@edu/domain';
import { classifyError, logClassifiedError } from './classify-error';
import { JsonErrorFilter } from './json-error.filter';
import { OAuthError } from './oauth.errors';

const NO_STORE = { 'Cache-Control': 'no-store', Pragma: 'no-cache' };

/**
 * Token endpoint errors as RFC 6749 §5.2 bodies (`message` repeats the description, design §7).
 * A spent token budget answers 429 `slow_down` with Retry-After.
 * A database outage answers 503 `temporarily_unavailable` with Retry-After (the RFC's code for
 * a server that cannot handle the request for now); anything else renders like every other
 * identity error.
 */
@Catch()
export class OAuthErrorFilter implements ExceptionFilter {
  private readonly logger = new Logger('Errors');
  private readonly fallback = new JsonErrorFilter();

  catch(exception: unknown, host: ArgumentsHost): void {
    const res = host.switchToHttp().getResponse<Response>();
    if (exception instanceof OAuthError) {
      if (exception.status === 401)
        res.set(
          'WWW-Authenticate',
          exception.basicChallenge ? 'Basic realm="edu-platform", charset="UTF-8"' : 'Bearer realm="edu-platform"',
        );
      this.send(res, exception.status, exception.code, exception.description);
      return;
    }
    const e = classifyError(exception);
    if (exception instanceof RetryLaterError) {
      // A spent token budget is RFC 8628's `slow_down` (registered for token endpoint errors); load shedding is an outage.
      res.set(e.headers);
      if (e.status === 429)
        this.send(res, 429, 'slow_down', `Too many token requests; retry after ${exception.retryAfterSeconds} s`);
      else this.send(res, e.status, 'temporarily_unavailable', 'The token service is overloaded; retry later');
      return;
    }
    if (!e.outage) {
      this.fallback.catch(exception, host);
      return;
    }
    logClassifiedError(this.logger, exception, e);
    if (res.headersSent) return;
    res.set(e.headers);
    this.send(res, e.status, 'temporarily_unavailable', 'The token service is temporarily unavailable; retry later');
  }

  private send(res: Response, status: number, error: string, description: string): void {
    res.status(status).set(NO_STORE).json({ error, error_description: description, message: description });
  }
}
