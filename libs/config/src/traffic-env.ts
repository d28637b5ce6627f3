import { IsBoolean, IsInt, Matches, Max, Min, ValidateBy, ValidateIf } from 'class-validator';
import ipaddr from 'ipaddr.js';
import { Secret } from './load-config';
import { ToBool, ToInt } from './transforms';

// The TypeScript mixin pattern requires a constructor type taking `any[]`.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Ctor<T = object> = new (...args: any[]) => T;

/** Express' named address ranges (`proxy-addr`). */
const NAMED_RANGES = new Set(['loopback', 'linklocal', 'uniquelocal']);

/** A TRUST_PROXY entry: a named range, an IP address or a CIDR range. */
function isProxyAddress(entry: string): boolean {
  if (NAMED_RANGES.has(entry)) return true;
  try {
    if (entry.includes('/')) ipaddr.parseCIDR(entry);
    else ipaddr.parse(entry);
    return true;
  } catch {
    return false;
  }
}

/** `TRUST_PROXY`: a hop count (1-10), or a comma-separated list of addresses, CIDR ranges and named ranges. */
export function isTrustProxySetting(value: unknown): boolean {
  if (typeof value !== 'string') return false;
  if (/^\d+$/.test(value)) return Number(value) >= 1 && Number(value) <= 10;
  return value.split(',').every((entry) => isProxyAddress(entry.trim()));
}

/**
 * What Express' `trust proxy` setting gets: false (the socket's address is the client, whatever
 * `X-Forwarded-For` says), a hop count, or the list of trusted proxy addresses.
 */
export function trustProxyValue(setting: string | undefined): boolean | number | string[] {
  if (!setting) return false;
  if (/^\d+$/.test(setting)) return Number(setting);
  return setting.split(',').map((s) => s.trim());
}

const quota = () => [ToInt(), IsInt(), Min(1), Max(1_000_000)];
const apply =
  (decorators: PropertyDecorator[]): PropertyDecorator =>
  (target, key) =>
    decorators.forEach((d) => d(target, key));
const Quota = (): PropertyDecorator => apply(quota());

/**
 * Rate limits and load shedding of the request-serving services (identity, oneroster, alerts):
 * budgets per window with their defaults (every one can be changed per installation), where the
 * counters live (Redis, shared by every replica), whose proxy may name the client's address, and
 * the overload bounds past which a service answers 503 at once.
 */
export function WithTrafficControl<TBase extends Ctor>(Base: TBase) {
  class TrafficControlEnv extends Base {
    /** Rate limits on; their counters are in REDIS_URL. Off only for local experiments and tests. */
    @ToBool()
    @IsBoolean()
    RATE_LIMIT_ENABLED = true;

    /**
     * Where the rate-limit counters live (required while RATE_LIMIT_ENABLED). A rule of its own
     * rather than @ValidateIf, which would also switch off a queue's REDIS_URL rule on the same
     * property (alerts).
     */
    @Secret()
    @ValidateBy({
      name: 'redisUrlForRateLimits',
      validator: {
        validate: (value, args) =>
          (args?.object as { RATE_LIMIT_ENABLED?: unknown }).RATE_LIMIT_ENABLED !== true ||
          (typeof value === 'string' && /^rediss?:\/\/.+/.test(value)),
        defaultMessage: () =>
          'REDIS_URL must be a redis:// URL (rate-limit counters live there; RATE_LIMIT_ENABLED=false runs without)',
      },
    })
    REDIS_URL = '';

    /** Key prefix of the counters (`<prefix>:<service>:<policy>:...`). */
    @Matches(/^[A-Za-z0-9:{}_.-]{1,64}$/, { message: 'RATE_LIMIT_PREFIX must be 1-64 letters, digits or :{}_.-' })
    RATE_LIMIT_PREFIX = 'rl';

    /** Length of every budget's window, in seconds. */
    @ToInt()
    @IsInt()
    @Min(1)
    @Max(3600)
    RATE_LIMIT_WINDOW_SECONDS = 60;

    /** POST /oauth/token per client id that authenticated: only its secret's holder spends it. */
    @Quota() RATE_LIMIT_TOKEN_PER_CLIENT = 300;
    /** Token requests (/oauth/token, /oidc/token) per source address. */
    @Quota() RATE_LIMIT_TOKEN_PER_ADDRESS = 600;
    /** Failed client authentications (token, introspection, revocation) per client id from one source address. */
    @Quota() RATE_LIMIT_TOKEN_FAILURES_PER_CLIENT_ADDRESS = 20;
    /** Failed client authentications per source address, whichever client ids they name. */
    @Quota() RATE_LIMIT_TOKEN_FAILURES_PER_ADDRESS = 100;
    /** GET/HEAD per client (deployment, app or operator). */
    @Quota() RATE_LIMIT_READ_PER_CLIENT = 1200;
    /** GET/HEAD per tenant, all its clients together. */
    @Quota() RATE_LIMIT_READ_PER_TENANT = 6000;
    /** Other writes (identity records, webhook registrations) per client. */
    @Quota() RATE_LIMIT_WRITE_PER_CLIENT = 300;
    @Quota() RATE_LIMIT_WRITE_PER_TENANT = 1200;
    /** OneRoster gradebook PUT, DELETE and POST per client. */
    @Quota() RATE_LIMIT_GRADEBOOK_WRITE_PER_CLIENT = 600;
    @Quota() RATE_LIMIT_GRADEBOOK_WRITE_PER_TENANT = 3000;
    /** POST /v2/alerts/messages per client: the operator's alert generator (batches of up to 1,000 messages). */
    @Quota() RATE_LIMIT_ALERT_SUBMISSIONS = 600;
    /** Requests without a token (JWKS, discovery) per source address. */
    @Quota() RATE_LIMIT_ANONYMOUS_PER_ADDRESS = 600;
    /**
     * The sign-in portal's pages, forms and the authorization and logout endpoints per source
     * address: a school behind one NAT address signs hundreds in within minutes (about 6 of these
     * a sign-in), so 3000 is about 500 sign-ins a minute from one address.
     */
    @Quota() RATE_LIMIT_SIGN_IN_PER_ADDRESS = 3000;
    /** The sign-in portal's stylesheets, brand assets and provider buttons per source address (cached by browsers). */
    @Quota() RATE_LIMIT_SIGN_IN_ASSETS_PER_ADDRESS = 6000;

    /**
     * Proxies allowed to name the client's address in `X-Forwarded-For`: a hop count or a list of
     * addresses, CIDR ranges and `loopback` / `linklocal` / `uniquelocal`. Unset: none, so the
     * connection's address is the client and a spoofed header changes nothing.
     */
    @ValidateIf((env: { TRUST_PROXY?: string }) => env.TRUST_PROXY !== undefined)
    @ValidateBy({
      name: 'trustProxy',
      validator: {
        validate: isTrustProxySetting,
        defaultMessage: () =>
          'TRUST_PROXY must be a hop count (1-10) or a comma-separated list of addresses, CIDR ranges, loopback, linklocal or uniquelocal',
      },
    })
    TRUST_PROXY?: string;

    /** Answer 503 at once while event-loop lag exceeds this (ms); 0 = never. */
    @ToInt()
    @IsInt()
    @Min(0)
    @Max(60_000)
    SHED_EVENT_LOOP_LAG_MS = 500;

    /** Answer 503 at once while waiting for a database connection exceeds this (ms); 0 = never. */
    @ToInt()
    @IsInt()
    @Min(0)
    @Max(60_000)
    SHED_DB_POOL_WAIT_MS = 2_000;

    /** `Retry-After` of a shed request (seconds). */
    @ToInt()
    @IsInt()
    @Min(1)
    @Max(300)
    SHED_RETRY_AFTER_SECONDS = 2;
  }
  return TrafficControlEnv;
}

/** The settings of WithTrafficControl as a plain type, for code that only reads them. */
export type TrafficControlSettings = InstanceType<ReturnType<typeof WithTrafficControl<new () => object>>>;
