/**
 * The kinds of delivery job. Every kind carries the delivery id (also the job id and the webhook
 * JWT's `jti`); what differs is where the attempt count starts and how many attempts there are.
 * These values are persistent (they are stored in queued jobs).
 */
export const DELIVERY_JOB_KINDS = ['first-attempt', 'requeued', 'redelivery', 'test'] as const;

export type DeliveryJobKind = (typeof DELIVERY_JOB_KINDS)[number];

/** A message's delivery to one webhook, on the full retry schedule. */
export interface FirstAttemptJob {
  kind: 'first-attempt';
  deliveryId: string;
}

/**
 * A job re-created for an open delivery whose job Redis lost: the schedule continues after the
 * attempts already made instead of restarting.
 */
export interface RequeuedJob {
  kind: 'requeued';
  deliveryId: string;
  attemptOffset: number;
}

/** A finished delivery's message sent again on request, as a new delivery on a new schedule. */
export interface RedeliveryJob {
  kind: 'redelivery';
  deliveryId: string;
}

/** An interactive test delivery: one attempt, at the front of the queue. */
export interface TestJob {
  kind: 'test';
  deliveryId: string;
}

export type DeliveryJob = FirstAttemptJob | RequeuedJob | RedeliveryJob | TestJob;

/** The job of one kind. */
export type DeliveryJobOf<K extends DeliveryJobKind> = Extract<DeliveryJob, { kind: K }>;

/**
 * A job's data as stored in Redis. Jobs queued before kinds existed carry no `kind`; every job
 * carries `attemptOffset` (0 unless requeued), which dispatchers of that release read, so either
 * release handles the other's jobs during a rolling deploy.
 */
export type DeliveryJobData =
  (DeliveryJob & { attemptOffset: number }) | { kind?: undefined; deliveryId: string; attemptOffset: number };

/** Attempts made before the job existed (non-zero only for a requeued job). */
export function attemptOffsetOf(job: DeliveryJob): number {
  return job.kind === 'requeued' ? job.attemptOffset : 0;
}

/** What is stored in Redis for a job (its fields only, whatever else the object carries). */
export function deliveryJobData(job: DeliveryJob): DeliveryJobData {
  return { kind: job.kind, deliveryId: job.deliveryId, attemptOffset: attemptOffsetOf(job) };
}

/**
 * The job a stored job's data describes. A job of this release is returned as it is; one queued
 * before kinds existed is requeued when it carried attempts, a first attempt otherwise (its
 * delivery's stored trigger still limits a test delivery to one attempt).
 */
export function deliveryJobOf(data: DeliveryJobData): DeliveryJob {
  if (data.kind !== undefined) return data;
  const attemptOffset = data.attemptOffset ?? 0;
  return attemptOffset > 0
    ? { kind: 'requeued', deliveryId: data.deliveryId, attemptOffset }
    : { kind: 'first-attempt', deliveryId: data.deliveryId };
}
