import { ArgumentsHost, Catch, ExceptionFilter } from '@nestjs/common';
import type { Response } from 'express';
import { OAuthError } from './oauth.errors';

/** Token endpoint errors as RFC 6749 §5.2 bodies (`message` repeats the description, design §7). */
@Catch(OAuthError)
export class OAuthErrorFilter implements ExceptionFilter {
  catch(err: OAuthError, host: ArgumentsHost): void {
    const res = host.switchToHttp().getResponse<Response>();
    if (err.status === 401) res.set('WWW-Authenticate', err.basicChallenge ? 'Basic realm="edu-platform", charset="UTF-8"' : 'Bearer realm="edu-platform"');
    res
      .status(err.status)
      .set({ 'Cache-Control': 'no-store', Pragma: 'no-cache' })
      .json({ error: err.code, error_description: err.description, message: err.description });
  }
}
