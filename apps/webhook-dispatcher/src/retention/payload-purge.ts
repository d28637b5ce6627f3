import { Injectable, Logger, type OnApplicationBootstrap, type OnModuleDestroy } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { Counter } from 'prom-client';
import { DataSource } from 'typeorm';
import { MetricsRegistry } from '@edu/http';
import { purgeTenantBatch, tenantRetentions, type PurgeCount } from '@edu/persistence';
import { DispatcherEnv } from '../config/dispatcher.env';

const BATCH = 500;

/**
 * Payload retention (design: student wellbeing data is not kept forever): every
 * `PAYLOAD_PURGE_INTERVAL_MS`, each tenant's messages and event deliveries older than its
 * `delivery_payload_retention_days` lose their payload, while ids, times, statuses and attempts
 * stay; deliveries that never finished sending end `expired`. Every replica runs it; rows one is
 * purging the others skip, so they share the work.
 */
@Injectable()
export class PayloadPurge implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly logger = new Logger('PayloadPurge');
  private readonly purged: Counter<'what'>;
  private timer?: NodeJS.Timeout;
  private stopped = false;

  constructor(
    @InjectDataSource() private readonly ds: DataSource,
    private readonly env: DispatcherEnv,
    metrics: MetricsRegistry,
  ) {
    this.purged = new Counter({
      name: 'alert_payloads_purged_total',
      help: 'Payloads purged after their tenant retention period (what=message, event) and deliveries expired with them (what=expired_delivery)',
      labelNames: ['what'],
      registers: [metrics.registry],
    });
    for (const what of ['message', 'event', 'expired_delivery']) this.purged.inc({ what }, 0);
  }

  onApplicationBootstrap(): void {
    this.schedule();
  }

  onModuleDestroy(): void {
    this.stopped = true;
    clearTimeout(this.timer);
  }

  /** Purges every tenant's due payloads, batch by batch; returns what it did. */
  async run(): Promise<PurgeCount> {
    const total: PurgeCount = { messages: 0, events: 0, expired: 0 };
    for (const { tenant_id, days } of await tenantRetentions(this.ds)) {
      for (;;) {
        const n = await purgeTenantBatch(this.ds, tenant_id, days, BATCH);
        total.messages += n.messages;
        total.events += n.events;
        total.expired += n.expired;
        if ((n.messages < BATCH && n.events < BATCH) || this.stopped) break;
      }
      if (this.stopped) break;
    }
    this.purged.inc({ what: 'message' }, total.messages);
    this.purged.inc({ what: 'event' }, total.events);
    this.purged.inc({ what: 'expired_delivery' }, total.expired);
    if (total.messages || total.events) this.logger.log(total, 'Purged delivery payloads past their retention');
    return total;
  }

  private schedule(): void {
    this.timer = setTimeout(async () => {
      try {
        await this.run();
      } catch (err) {
        this.logger.warn({ err }, 'Payload purge pass failed; it runs again');
      }
      if (!this.stopped) this.schedule();
    }, this.env.PAYLOAD_PURGE_INTERVAL_MS);
  }
}
