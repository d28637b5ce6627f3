import { IsInt, IsOptional, IsString, IsUrl, Max, Min, MinLength, ValidateIf } from 'class-validator';
import {
  BaseEnv,
  DEMO_KEY_ENCRYPTION_KEY,
  RefuseInProduction,
  Secret,
  ToInt,
  URL_OPTS,
  WithWebhookDelivery,
} from '@edu/config';

/**
 * Configuration of the webhook delivery worker (validated at boot). The schedule defaults are the
 * spec's (30 s timeout, first retry after 5 s, doubling, 10 retries); tests shrink them.
 */
export class DispatcherEnv extends WithWebhookDelivery(BaseEnv) {
  /** Health and metrics port (the worker has no public API). */
  override PORT = 3003;

  /** Decrypts the webhook signing key stored by the identity service (same value as there). */
  @Secret()
  @IsString()
  @MinLength(32)
  @RefuseInProduction(DEMO_KEY_ENCRYPTION_KEY)
  KEY_ENCRYPTION_KEY = DEMO_KEY_ENCRYPTION_KEY;

  /**
   * Public origin of the alerts API that partners call (e.g. `https://au-nsw.api.edu.example`):
   * notification-only deliveries link to getMessage there. Required in production.
   */
  @ValidateIf((o: DispatcherEnv) => o.NODE_ENV === 'production' || o.ALERTS_PUBLIC_BASE_URL !== undefined)
  @IsUrl(URL_OPTS, {
    message: 'ALERTS_PUBLIC_BASE_URL must be the public http(s) origin of the alerts API (required in production)',
  })
  ALERTS_PUBLIC_BASE_URL?: string;

  /** A delivery not answered 2xx within this time has failed (spec: 30 s). */
  @ToInt()
  @IsInt()
  @Min(1)
  @Max(300_000)
  WEBHOOK_TIMEOUT_MS = 30_000;

  /** First retry delay; each later one doubles (spec: 5 s). */
  @ToInt()
  @IsInt()
  @Min(1)
  WEBHOOK_RETRY_BASE_MS = 5_000;

  /**
   * Longest wait honoured when a receiver answers 429 or 503 with Retry-After (seconds; 1 h). The
   * next attempt is then at least the asked wait after this one (never sooner than the schedule);
   * a longer wait is cut to this and logged.
   */
  @ToInt()
  @IsInt()
  @Min(0)
  @Max(86_400)
  WEBHOOK_RETRY_AFTER_MAX_SECONDS = 3_600;

  /**
   * Milliseconds one Retry-After second stands for: 1000. Tests shrink it, as they shrink
   * WEBHOOK_RETRY_BASE_MS, so that a receiver asking for 120 s is honoured in a scaled 1.2 s.
   */
  @ToInt()
  @IsInt()
  @Min(1)
  @Max(1_000)
  WEBHOOK_RETRY_AFTER_SECOND_MS = 1_000;

  /**
   * A webhook failing continuously this long (no delivered attempt since its first failure) is
   * disabled as dead (5 days, as Svix); 0 turns the rule off.
   */
  @ToInt()
  @IsInt()
  @Min(0)
  WEBHOOK_DISABLE_AFTER_FAILING_MS = 5 * 86_400_000;

  /**
   * A webhook with this many deliveries in a row undeliverable (each after its whole schedule) is
   * disabled as dead; 0 turns the rule off.
   */
  @ToInt()
  @IsInt()
  @Min(0)
  @Max(1_000_000)
  WEBHOOK_DISABLE_AFTER_UNDELIVERABLE = 100;

  /** Deliveries in flight per worker process. */
  @ToInt()
  @IsInt()
  @Min(1)
  @Max(2000)
  WEBHOOK_CONCURRENCY = 100;

  /**
   * Deliveries in flight per webhook per worker process: one slow or dead endpoint cannot take
   * every slot. Work over the cap waits a moment without spending a retry.
   */
  @ToInt()
  @IsInt()
  @Min(1)
  @Max(2000)
  WEBHOOK_MAX_IN_FLIGHT_PER_WEBHOOK = 25;

  /** Keep-alive connections per endpoint origin. */
  @ToInt()
  @IsInt()
  @Min(1)
  @Max(1000)
  WEBHOOK_CONNECTIONS_PER_ORIGIN = 32;

  /** Bytes of encoded full-payload messages kept per process, so a message's other webhooks and retries reuse them. */
  @ToInt()
  @IsInt()
  @Min(1_048_576)
  WEBHOOK_PAYLOAD_CACHE_BYTES = 67_108_864;

  /** A worker that dies holds its jobs for at most this long (lock renewed every half of it). */
  @ToInt()
  @IsInt()
  @Min(1000)
  WEBHOOK_LOCK_DURATION_MS = 10_000;

  /** How often jobs of dead workers are looked for. */
  @ToInt()
  @IsInt()
  @Min(500)
  WEBHOOK_STALLED_INTERVAL_MS = 5_000;

  /** Crash recoveries a job survives before BullMQ gives up on it (the sweeper then takes over). */
  @ToInt()
  @IsInt()
  @Min(1)
  @Max(100)
  WEBHOOK_MAX_STALLED_COUNT = 5;

  /** How often deliveries stored but not yet queued (outbox) are queued. */
  @ToInt()
  @IsInt()
  @Min(50)
  WEBHOOK_RELAY_INTERVAL_MS = 1_000;

  /** How often overdue deliveries whose job vanished from Redis are looked for. */
  @ToInt()
  @IsInt()
  @Min(100)
  WEBHOOK_SWEEP_INTERVAL_MS = 30_000;

  /** A delivery this long past due with no job in Redis is re-queued by the sweeper. */
  @ToInt()
  @IsInt()
  @Min(0)
  WEBHOOK_SWEEP_GRACE_MS = 120_000;

  /**
   * How often payloads past their tenant's retention (`delivery_payload_retention_days`, default
   * 30) are purged: messages' recipient and alerts, event deliveries' bodies (1 h).
   */
  @ToInt()
  @IsInt()
  @Min(100)
  PAYLOAD_PURGE_INTERVAL_MS = 3_600_000;

  /** Worker id written into attempt records (defaults to host name and pid). */
  @IsOptional()
  @IsString()
  WORKER_ID?: string;
}
