import type { Response } from 'express';
import type { RetryLaterError } from '@edu/domain';
import { PAGE_HEADERS } from './html';
import { problemPage } from './pages';

/** What a person reads when a sign-in page is refused for now: too many attempts (429) or a busy service (503). */
export function retryLaterProblem(err: RetryLaterError): { status: number; title: string; message: string } {
  const wait = `Wait ${err.retryAfterSeconds} seconds and try again.`;
  if (err.status === 429)
    return { status: 429, title: 'Too many attempts', message: `Too many sign-in attempts. ${wait}` };
  return { status: err.status, title: 'Sign-in is busy', message: `Sign-in is busy right now. ${wait}` };
}

/**
 * The refusal as the portal's page, with Retry-After. No vanity domain's brand: that is a
 * database read, and a refused request must cost nothing.
 */
export function sendRetryLaterPage(res: Response, err: RetryLaterError): void {
  const { status, title, message } = retryLaterProblem(err);
  res
    .status(status)
    .set({ ...PAGE_HEADERS, 'Retry-After': String(err.retryAfterSeconds) })
    .send(problemPage({ title, message }));
}
