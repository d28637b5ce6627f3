import { Injectable, Logger, type OnModuleDestroy } from '@nestjs/common';
import { standaloneDeliveryQueue, type DeliveryQueue } from '@edu/queue';
import { OnerosterEnv } from '../../oneroster.env';
import { EventStreamsRepository } from './event-streams.repository';

/** How long a push step waits for Redis before leaving its delivery to the dispatcher's outbox relay. */
const QUEUE_WAIT_MS = 2_000;

/**
 * Queues pushed batches on the webhook dispatcher's delivery queue right after their commit and
 * marks them queued. Without Redis (not configured, slow or down) nothing is lost: the delivery
 * stays unqueued in PostgreSQL and the dispatcher's outbox relay queues it.
 */
@Injectable()
export class PushQueue implements OnModuleDestroy {
  private readonly logger = new Logger('RosterEventPush');
  private readonly deliveries: DeliveryQueue | undefined;
  private readonly close: (() => Promise<void>) | undefined;

  constructor(
    env: OnerosterEnv,
    private readonly streams: EventStreamsRepository,
  ) {
    if (!env.REDIS_URL) return;
    ({ deliveries: this.deliveries, close: this.close } = standaloneDeliveryQueue({
      redisUrl: env.REDIS_URL,
      prefix: env.QUEUE_PREFIX,
      maxRetries: env.WEBHOOK_MAX_RETRIES,
    }));
  }

  async enqueue(deliveryId: string): Promise<void> {
    if (!this.deliveries) return;
    let timer: NodeJS.Timeout | undefined;
    try {
      await Promise.race([
        this.deliveries.enqueue([{ kind: 'first-attempt', deliveryId }]),
        new Promise((_, reject) => {
          timer = setTimeout(() => reject(new Error(`Redis did not answer in ${QUEUE_WAIT_MS} ms`)), QUEUE_WAIT_MS);
        }),
      ]);
      await this.streams.markEnqueued([deliveryId]);
    } catch (err) {
      this.logger.warn({ err, deliveryId }, 'Pushed batch stored but not queued; the outbox relay will queue it');
    } finally {
      clearTimeout(timer);
    }
  }

  async onModuleDestroy(): Promise<void> {
    await this.close?.().catch(() => undefined);
  }
}
