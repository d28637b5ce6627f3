import { ArgumentsHost, Catch, type ExceptionFilter, HttpException, Injectable, Logger } from '@nestjs/common';
import type { Request, Response } from 'express';
import { ApiError, RetryLaterError } from '@edu/domain';
import { RefusalReason } from '../log/refusal-reason';
import { SignInOutcomes } from '../log/sign-in-outcomes';
import { UpstreamError } from '../upstream/upstream-client';
import { BrandStore, type PageBrand } from './brand/brand-store';
import { PAGE_HEADERS } from './html';
import { problemPage } from './pages';
import { retryLaterProblem } from './retry-later-page';

/**
 * Sign-in pages fail as pages: a provider's fault, a rate limit, an overload or a bug, never JSON
 * or a stack trace; on a school's vanity domain, in the school's brand.
 */
@Catch()
@Injectable()
export class PortalErrorFilter implements ExceptionFilter {
  private readonly logger = new Logger('SignIn');

  constructor(
    private readonly brands: BrandStore,
    private readonly outcomes: SignInOutcomes,
  ) {}

  async catch(err: unknown, host: ArgumentsHost): Promise<void> {
    const http = host.switchToHttp();
    const res = http.getResponse<Response>();
    if (res.headersSent) return;
    // A provider's failure that no flow caught is still a refused sign-in: the one recorder says so.
    if (err instanceof UpstreamError)
      await this.outcomes.refused({ reason: RefusalReason.UpstreamError, detail: `${err.message}: ${err.detail}` });
    const { status, title, message } = this.describe(err);
    const brand = await this.brandOf(http.getRequest<Request>().hostname, err);
    if (res.headersSent) return;
    if (err instanceof RetryLaterError) res.setHeader('Retry-After', String(err.retryAfterSeconds));
    res.status(status).set(PAGE_HEADERS).send(problemPage({ title, message, brand }));
  }

  /**
   * The host's brand. A refusal for now (429, 503) wears only what is already in memory: a refused
   * request must cost nothing. An error page reads it, and falls back to memory if that fails too.
   */
  private async brandOf(hostname: string, err: unknown): Promise<PageBrand | undefined> {
    if (err instanceof RetryLaterError) return this.brands.lastKnown(hostname);
    try {
      return await this.brands.forHost(hostname);
    } catch {
      return this.brands.lastKnown(hostname);
    }
  }

  private describe(err: unknown): { status: number; title: string; message: string } {
    if (err instanceof UpstreamError)
      return { status: 502, title: 'Sign-in failed', message: `${err.message}. Go back to the app and try again.` };
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
