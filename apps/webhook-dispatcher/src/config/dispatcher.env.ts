import { IsInt, IsString, Matches, Max, Min, MinLength } from 'class-validator';
import { BaseEnv, Secret, ToInt } from '@edu/config';

/** Configuration of the webhook delivery worker (validated at boot). Delays default to the spec's. */
export class DispatcherEnv extends BaseEnv {
  /** Health and metrics port (the worker has no public API). */
  override PORT = 3003;

  @Secret() @Matches(/^rediss?:\/\/.+/, { message: 'REDIS_URL must be a redis:// URL' })
  REDIS_URL = '';

  @IsString() @MinLength(1)
  QUEUE_PREFIX = '{edu}';

  /** A delivery not answered 2xx within this time has failed (spec: 30 s). */
  @ToInt() @IsInt() @Min(1) @Max(300_000)
  WEBHOOK_TIMEOUT_MS = 30_000;

  /** First retry delay; each later one doubles (spec: 5 s). */
  @ToInt() @IsInt() @Min(1)
  WEBHOOK_RETRY_BASE_MS = 5_000;

  /** Retries after the first attempt before a delivery is undeliverable (spec: 10). */
  @ToInt() @IsInt() @Min(0) @Max(50)
  WEBHOOK_MAX_RETRIES = 10;

  /** Deliveries in flight per worker process. */
  @ToInt() @IsInt() @Min(1) @Max(1000)
  WEBHOOK_CONCURRENCY = 50;
}
