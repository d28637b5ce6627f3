import { Injectable } from '@nestjs/common';
import {
  DELIVERY_JOB_KINDS,
  deliveryJobOf,
  type DeliveryJob,
  type DeliveryJobData,
  type DeliveryJobKind,
  type DeliveryJobOf,
} from '@edu/queue';
import { DeliveryService } from './delivery.service';
import type { JobSettlement } from './job-settlement';

/** Handles one kind of delivery job; `attemptsMade`: BullMQ's count of this job's failed attempts. */
export type DeliveryJobHandler<K extends DeliveryJobKind> = (
  job: DeliveryJobOf<K>,
  attemptsMade: number,
) => Promise<JobSettlement>;

/** One handler per kind: a kind without one does not compile. */
export type DeliveryJobHandlerMap = { readonly [K in DeliveryJobKind]: DeliveryJobHandler<K> };

/** What each kind of job asks of the delivery service. */
export function deliveryJobHandlers(service: DeliveryService): DeliveryJobHandlerMap {
  return {
    'first-attempt': (job, attemptsMade) => service.attempt(job.deliveryId, attemptsMade, false),
    // The schedule continues after the attempts made before Redis lost the job.
    requeued: (job, attemptsMade) => service.attempt(job.deliveryId, job.attemptOffset + attemptsMade, false),
    redelivery: (job, attemptsMade) => service.attempt(job.deliveryId, attemptsMade, false),
    test: (job, attemptsMade) => service.attempt(job.deliveryId, attemptsMade, true),
  };
}

/**
 * The handlers by kind, refusing (at boot, where this runs) a map that misses a kind of
 * `DELIVERY_JOB_KINDS` or names one that is not there: the type above holds for code that
 * compiles, this for whatever reaches the map at run time.
 */
export function handlersByKind(map: DeliveryJobHandlerMap): ReadonlyMap<string, DeliveryJobHandler<DeliveryJobKind>> {
  const missing = DELIVERY_JOB_KINDS.filter((kind) => typeof map[kind] !== 'function');
  const unknown = Object.keys(map).filter((kind) => !(DELIVERY_JOB_KINDS as readonly string[]).includes(kind));
  if (missing.length || unknown.length) {
    throw new Error(
      `Delivery job handlers do not match the job kinds: ${[...missing.map((k) => `no handler for "${k}"`), ...unknown.map((k) => `a handler for unknown kind "${k}"`)].join(', ')}`,
    );
  }
  return new Map(DELIVERY_JOB_KINDS.map((kind) => [kind, map[kind] as DeliveryJobHandler<DeliveryJobKind>]));
}

/** Hands each job to the handler of its kind. */
@Injectable()
export class DeliveryJobRouter {
  private readonly handlers: ReadonlyMap<string, DeliveryJobHandler<DeliveryJobKind>>;

  constructor(service: DeliveryService) {
    this.handlers = handlersByKind(deliveryJobHandlers(service));
  }

  /**
   * The settlement of a job as stored in Redis (a job queued before kinds existed is mapped to its
   * kind). A kind this release does not know (a newer producer's) fails the job; the sweeper
   * queues its delivery again once it is overdue.
   */
  route(data: DeliveryJobData, attemptsMade: number): Promise<JobSettlement> {
    const job: DeliveryJob = deliveryJobOf(data);
    const handler = this.handlers.get(job.kind);
    if (!handler)
      return Promise.resolve({ kind: 'give-up', reason: `unknown delivery job kind "${String(job.kind)}"` });
    return handler(job, attemptsMade);
  }
}
