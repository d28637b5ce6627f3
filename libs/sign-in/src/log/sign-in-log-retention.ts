import { Injectable, Logger, type OnModuleDestroy, type OnModuleInit } from '@nestjs/common';
import { SignInEnv } from '../sign-in.env';
import { SignInEventRepository } from './sign-in-event.repository';

const SWEEP_MS = 60 * 60_000;

/**
 * Keeps the sign-in log to SIGNIN_LOG_RETENTION_DAYS: every replica deletes older rows hourly in
 * bounded batches (concurrent sweeps delete disjoint or no rows, so no coordination is needed).
 */
@Injectable()
export class SignInLogRetention implements OnModuleInit, OnModuleDestroy {
  private readonly logger = new Logger('SignIn');
  private timer?: NodeJS.Timeout;

  constructor(
    private readonly env: SignInEnv,
    private readonly events: SignInEventRepository,
  ) {}

  onModuleInit(): void {
    this.timer = setInterval(() => void this.sweep(), SWEEP_MS);
    this.timer.unref();
  }

  onModuleDestroy(): void {
    clearInterval(this.timer);
  }

  /** Deletes expired rows until none is left (a batch at a time); never throws. */
  async sweep(): Promise<number> {
    let total = 0;
    try {
      for (let n = -1; n !== 0; total += n) n = await this.events.deleteOlderThan(this.env.SIGNIN_LOG_RETENTION_DAYS);
    } catch (err) {
      this.logger.warn({ err }, 'sign-in log sweep failed');
    }
    return total;
  }
}
