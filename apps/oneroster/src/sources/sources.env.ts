import { IsBoolean, IsString, Matches, MinLength, ValidateBy, ValidateIf } from 'class-validator';
import { DEMO_KEY_ENCRYPTION_KEY, RefuseInProduction, Secret, ToBool } from '@edu/config';
import { DEFAULT_WEBHOOK_PORTS, parsePortAllowList, type WebhookTargetPolicy } from '@edu/domain';

// The TypeScript mixin pattern requires a constructor type taking `any[]`.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Ctor<T = object> = new (...args: any[]) => T;

/** A development convenience that must stay off in production (as the webhook ones). */
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

/**
 * Settings the OneRoster API and the sync worker share for roster sources: the key sealing their
 * secrets, the queue, and where a source's URLs may point (the webhook SSRF rule, with its own
 * switches: a SIS on this machine is a development setup, never a production one).
 */
export function WithRosterSources<TBase extends Ctor>(Base: TBase) {
  class RosterSourcesEnv extends Base {
    /**
     * Seals sources' client secrets and the notification secret (the same value as identity's).
     * Unset: the demo value outside production; in production sources with secrets cannot be
     * stored (the API answers 503 saying so) and the sync worker does not start.
     */
    @Secret()
    @ValidateIf((o: { KEY_ENCRYPTION_KEY?: string }) => o.KEY_ENCRYPTION_KEY !== undefined)
    @IsString()
    @MinLength(32)
    @RefuseInProduction(DEMO_KEY_ENCRYPTION_KEY)
    KEY_ENCRYPTION_KEY?: string;

    /** BullMQ key prefix of the roster sync queue (the braces are a Redis Cluster hash tag). */
    @IsString()
    @MinLength(1)
    QUEUE_PREFIX = '{edu}';

    /** Accept http:// source URLs (local development and tests only). */
    @ToBool()
    @IsBoolean()
    @OffInProduction(false)
    ROSTER_SOURCE_ALLOW_HTTP = false;

    /** Accept loopback and private source URLs (local development and tests only). */
    @ToBool()
    @IsBoolean()
    @OffInProduction(false)
    ROSTER_SOURCE_ALLOW_PRIVATE_TARGETS = false;

    /** Ports source URLs may use, comma-separated; `*` = any (development only). */
    @Matches(/^(\*|\d{1,5}(\s*,\s*\d{1,5})*)$/, {
      message: 'ROSTER_SOURCE_ALLOWED_PORTS must be a comma-separated list of ports or *',
    })
    @RefuseInProduction('*')
    ROSTER_SOURCE_ALLOWED_PORTS = DEFAULT_WEBHOOK_PORTS.join(',');
  }
  return RosterSourcesEnv;
}

export interface RosterSourcesSettings {
  NODE_ENV: string;
  SCHEMA_BASE: string;
  ONEROSTER_SCOPE_BASE: string;
  KEY_ENCRYPTION_KEY?: string;
  QUEUE_PREFIX: string;
  ROSTER_SOURCE_ALLOW_HTTP: boolean;
  ROSTER_SOURCE_ALLOW_PRIVATE_TARGETS: boolean;
  ROSTER_SOURCE_ALLOWED_PORTS: string;
  REDIS_URL: string;
}

/** Where source URLs (and the guard's notification endpoint) may point. */
export function sourceTargetPolicy(env: RosterSourcesSettings): WebhookTargetPolicy {
  return {
    allowHttp: env.ROSTER_SOURCE_ALLOW_HTTP,
    allowPrivate: env.ROSTER_SOURCE_ALLOW_PRIVATE_TARGETS,
    allowedPorts: parsePortAllowList(env.ROSTER_SOURCE_ALLOWED_PORTS),
  };
}

/** The key sealing sources' secrets: the configured one, or the demo value outside production. */
export function sourcesKeyEncryptionKey(env: RosterSourcesSettings): string | undefined {
  return env.KEY_ENCRYPTION_KEY ?? (env.NODE_ENV === 'production' ? undefined : DEMO_KEY_ENCRYPTION_KEY);
}
