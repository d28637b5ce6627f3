import { Injectable } from '@nestjs/common';
import { Counter } from 'prom-client';
import { MetricsRegistry } from '@edu/http';

/** Metrics of the alerts API beyond the per-route HTTP histogram. */
@Injectable()
export class AlertsMetrics {
  readonly messagesStored: Counter;

  constructor(metrics: MetricsRegistry) {
    this.messagesStored = new Counter({
      name: 'alert_messages_stored_total',
      help: 'Alert messages stored (resubmissions of a known transaction id not counted)',
      registers: [metrics.registry],
    });
  }
}
