import { IsBoolean, IsString, Matches, MinLength } from 'class-validator';
import { ResourceServerEnv, Secret, ToBool } from '@edu/config';

/** Configuration of the alerts service (validated at boot). */
export class AlertsEnv extends ResourceServerEnv {
  override PORT = 3002;

  @Secret() @Matches(/^rediss?:\/\/.+/, { message: 'REDIS_URL must be a redis:// URL' })
  REDIS_URL = '';

  /** BullMQ key prefix; the braces are a Redis Cluster hash tag. */
  @IsString() @MinLength(1)
  QUEUE_PREFIX = '{edu}';

  /** Accept http:// webhook endpoints (local development only). */
  @ToBool() @IsBoolean()
  WEBHOOK_ALLOW_HTTP = false;

  /** Accept loopback/private webhook endpoints (tests and local development only). */
  @ToBool() @IsBoolean()
  WEBHOOK_ALLOW_PRIVATE_TARGETS = false;
}
