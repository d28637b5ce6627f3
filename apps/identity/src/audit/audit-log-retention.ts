import { Injectable, Logger, type OnModuleDestroy, type OnModuleInit } from '@nestjs/common';
import { IdentityEnv } from '../config/identity.env';
import { AuditEventRepository } from './audit-event.repository';

const SWEEP_MS = 60 * 60_000;

/**
 * Keeps the audit trail as long as the sign-in log (SIGNIN_LOG_RETENTION_DAYS): every replica
 * deletes older rows hourly in bounded batches (concurrent sweeps need no coordination).
 */
@Injectable()
export class AuditLogRetention implements OnModuleInit, OnModuleDestroy {
  private readonly logger = new Logger('Audit');
  private timer?: NodeJS.Timeout;

  constructor(
    private readonly env: IdentityEnv,
    private readonly events: AuditEventRepository,
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
      this.logger.warn({ err }, 'audit trail sweep failed');
    }
    return total;
  }
}
