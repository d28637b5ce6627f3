import { IsBoolean, IsInt, IsString, Matches, Max, Min, MinLength, ValidateBy } from 'class-validator';
import { DEFAULT_WEBHOOK_PORTS, parsePortAllowList, type WebhookTargetPolicy } from '@edu/domain';
import { Secret } from './load-config';
import { RefuseInProduction, ToBool, ToInt } from './transforms';

/** Demo value of KEY_ENCRYPTION_KEY (printed by `npm start`, refused in production). */
export const DEMO_KEY_ENCRYPTION_KEY = 'demo-key-encryption-key-not-for-production-use';

/** A development convenience that must stay off in production. */
function OffInProduction(offValue: unknown): PropertyDecorator {
  return ValidateBy({
    name: 'offInProduction',
    validator: {
      validate: (value, args) =>
        (args?.object as { NODE_ENV?: string }).NODE_ENV !== 'production' || value === offValue,
      defaultMessage: (args) =>
        `${args?.property} is for local development and tests only; it cannot be used in production`,
    },
  });
}

// The TypeScript mixin pattern requires a constructor type taking `any[]`.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Ctor<T = object> = new (...args: any[]) => T;

/**
 * Settings shared by the alerts API (which registers webhooks and enqueues deliveries) and the
 * webhook dispatcher (which sends them): the queue, the target policy and the retry count.
 */
export function WithWebhookDelivery<TBase extends Ctor>(Base: TBase) {
  class WebhookDeliveryEnv extends Base {
    @Secret()
    @Matches(/^rediss?:\/\/.+/, { message: 'REDIS_URL must be a redis:// URL' })
    REDIS_URL = '';

    /** BullMQ key prefix; the braces are a Redis Cluster hash tag. */
    @IsString()
    @MinLength(1)
    QUEUE_PREFIX = '{edu}';

    /** Accept http:// webhook endpoints (local development only). */
    @ToBool()
    @IsBoolean()
    @OffInProduction(false)
    WEBHOOK_ALLOW_HTTP = false;

    /** Accept loopback/private webhook endpoints (tests and local development only). */
    @ToBool()
    @IsBoolean()
    @OffInProduction(false)
    WEBHOOK_ALLOW_PRIVATE_TARGETS = false;

    /** Ports webhook endpoints may use, comma-separated; `*` = any (development only). */
    @Matches(/^(\*|\d{1,5}(\s*,\s*\d{1,5})*)$/, {
      message: 'WEBHOOK_ALLOWED_PORTS must be a comma-separated list of ports or *',
    })
    @RefuseInProduction('*')
    WEBHOOK_ALLOWED_PORTS = DEFAULT_WEBHOOK_PORTS.join(',');

    /** Retries after the first attempt before a delivery is undeliverable (spec: 10). */
    @ToInt()
    @IsInt()
    @Min(0)
    @Max(50)
    WEBHOOK_MAX_RETRIES = 10;
  }
  return WebhookDeliveryEnv;
}

/** The SSRF policy a service's configuration describes. */
export function webhookTargetPolicy(env: {
  WEBHOOK_ALLOW_HTTP: boolean;
  WEBHOOK_ALLOW_PRIVATE_TARGETS: boolean;
  WEBHOOK_ALLOWED_PORTS: string;
}): WebhookTargetPolicy {
  return {
    allowHttp: env.WEBHOOK_ALLOW_HTTP,
    allowPrivate: env.WEBHOOK_ALLOW_PRIVATE_TARGETS,
    allowedPorts: parsePortAllowList(env.WEBHOOK_ALLOWED_PORTS),
  };
}
