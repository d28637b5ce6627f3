import { Injectable } from '@nestjs/common';
import { Counter } from 'prom-client';
import { MetricsRegistry } from '@edu/http';
import { DELIVERY_REASONS } from '@edu/persistence';

/** Metrics of the alerts API beyond the per-route HTTP histogram. */
@Injectable()
export class AlertsMetrics {
  readonly messagesStored: Counter;
  readonly deliveriesWithheld: Counter<'reason'>;

  constructor(metrics: MetricsRegistry) {
    this.messagesStored = new Counter({
      name: 'alert_messages_stored_total',
      help: 'Alert messages stored (resubmissions of a known transaction id not counted)',
      registers: [metrics.registry],
    });
    this.deliveriesWithheld = new Counter({
      name: 'alert_deliveries_withheld_total',
      help: "Deliveries stored withheld at fan-out, never sent (reason not_shared: the app's data sharing does not share a person the message names)",
      labelNames: ['reason'],
      registers: [metrics.registry],
    });
    for (const reason of DELIVERY_REASONS) this.deliveriesWithheld.inc({ reason }, 0);
  }
}
