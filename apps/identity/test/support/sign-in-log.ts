import { Logger } from '@nestjs/common';

/** A line of the service log about a sign-in, as `SignInOutcomes` writes it. */
export type SignInLogLine = Record<string, unknown> & { event: 'sign_in'; outcome: 'success' | 'refused' };

const isSignInLine = (v: unknown): v is SignInLogLine =>
  typeof v === 'object' && v !== null && (v as { event?: unknown }).event === 'sign_in';

/**
 * The service log's sign-in lines, read where the app writes them (Nest's `Logger`, in this
 * process): spies on `log` and `warn` that still call through, until `restore()`.
 */
export class SignInLog {
  private readonly spies = [jest.spyOn(Logger.prototype, 'log'), jest.spyOn(Logger.prototype, 'warn')];

  /** The sign-in lines written since the last `clear()`, in no particular order between levels. */
  lines(): SignInLogLine[] {
    return this.spies.flatMap((s) => s.mock.calls.map((c) => c[0] as unknown)).filter(isSignInLine);
  }

  refusals(): SignInLogLine[] {
    return this.lines().filter((l) => l.outcome === 'refused');
  }

  clear(): void {
    for (const s of this.spies) s.mockClear();
  }

  restore(): void {
    for (const s of this.spies) s.mockRestore();
  }
}
