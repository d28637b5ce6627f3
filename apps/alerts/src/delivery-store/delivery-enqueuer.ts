import { Injectable, Logger } from '@nestjs/common';
import { WebhookDeliveriesRepository } from '@edu/persistence';
import { DeliveryQueue, type DeliveryJobToQueue } from '@edu/queue';

/** How long a request waits for Redis before leaving its deliveries to the outbox relay. */
export const ENQUEUE_WAIT_MS = 2_000;

/**
 * Queues stored deliveries after their commit and marks them queued. When Redis is slow or down
 * the request still succeeds: the deliveries stay marked unqueued and the dispatcher's outbox
 * relay queues them. Used by fan-out, redelivery and test deliveries.
 */
@Injectable()
export class DeliveryEnqueuer {
  private readonly logger = new Logger('DeliveryEnqueuer');

  constructor(
    private readonly queue: DeliveryQueue,
    private readonly deliveries: WebhookDeliveriesRepository,
  ) {}

  async enqueue(jobs: readonly DeliveryJobToQueue[], waitMs = ENQUEUE_WAIT_MS): Promise<void> {
    await this.add(jobs, waitMs, () => this.queue.enqueue(jobs));
  }

  /**
   * Queues deliveries that had a job before (a re-enabled webhook's held deliveries), replacing
   * their finished jobs. Without Redis, the sweeper queues them once they are overdue.
   */
  async requeue(jobs: readonly DeliveryJobToQueue[], waitMs = ENQUEUE_WAIT_MS): Promise<void> {
    await this.add(jobs, waitMs, () => this.queue.requeue(jobs));
  }

  private async add(jobs: readonly DeliveryJobToQueue[], waitMs: number, add: () => Promise<void>): Promise<void> {
    if (jobs.length === 0) return;
    const deliveryIds = jobs.map((j) => j.deliveryId);
    let timer: NodeJS.Timeout | undefined;
    try {
      await Promise.race([
        add(),
        new Promise(
          (_, reject) =>
            (timer = setTimeout(() => reject(new Error(`no answer from Redis within ${waitMs} ms`)), waitMs)),
        ),
      ]);
      await this.deliveries.markEnqueued(deliveryIds);
    } catch (err) {
      this.logger.warn(
        { err, deliveries: deliveryIds.length },
        'Deliveries stored but not queued yet; the outbox relay will queue them',
      );
    } finally {
      clearTimeout(timer);
    }
  }
}
