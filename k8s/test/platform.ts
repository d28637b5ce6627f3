/** Facts about the platform that the deployment files must agree with. */

/** Every process and the port it listens on (design/system.md §1). */
export const APP_PORTS = {
  identity: 3000,
  oneroster: 3001,
  alerts: 3002,
  'webhook-dispatcher': 3003,
  // The roster sync worker (apps/oneroster/src/sources/worker): health and metrics; SFTP on 2222.
  'roster-sync': 3004,
} as const;
export type AppName = keyof typeof APP_PORTS;
export const APPS = Object.keys(APP_PORTS) as AppName[];

/** The HTTP APIs (autoscaled, behind Services); the dispatcher serves health and metrics only. */
export const API_APPS: AppName[] = ['identity', 'oneroster', 'alerts'];

/** Ports an app listens on besides its HTTP port: the roster sync worker's SFTP endpoint. */
export const EXTRA_PORTS: Partial<Record<AppName, number[]>> = { 'roster-sync': [2222] };

/** Apps that use Redis: the BullMQ queues (alerts, dispatcher, roster-sync) and the rate-limit counters (identity, oneroster, alerts). */
export const REDIS_APPS: AppName[] = ['identity', 'oneroster', 'alerts', 'webhook-dispatcher', 'roster-sync'];

/**
 * Sign-in's core providers (the operator's Google and Microsoft OpenID Connect clients): identity
 * reads them from the optional Secret `SIGNIN_SECRET`, each key optional (unset: not offered).
 */
export const SIGNIN_VARIABLES = ['GOOGLE', 'MICROSOFT'].flatMap((p) =>
  ['ISSUER', 'CLIENT_ID', 'CLIENT_SECRET'].map((k) => `SIGNIN_${p}_${k}`),
);
export const SIGNIN_SECRET = 'edu-platform-signin';

/** Variables that hold credentials: only ever read from a Secret. */
export const SECRET_VARIABLES = [
  'DATABASE_URL',
  'REDIS_URL',
  'OPERATOR_CLIENT_SECRET',
  'KEY_ENCRYPTION_KEY',
  'ROSTER_EVENTS_CURSOR_SECRET',
  'REPLICATION_SOURCE_URL',
  'SIGNIN_GOOGLE_CLIENT_SECRET',
  'SIGNIN_MICROSOFT_CLIENT_SECRET',
  'ROSTER_SFTP_HOST_KEY',
] as const;

/** Every variable the processes read (all validated at boot); anything else is a typo. */
export const KNOWN_VARIABLES = new Set<string>([
  'NODE_ENV',
  'LOG_LEVEL',
  'PORT',
  'HOST',
  'DATABASE_URL',
  'DB_POOL_SIZE',
  'SCHEMA_BASE',
  'ONEROSTER_SCOPE_BASE',
  'ONEROSTER_V1P2_SCOPE_BASE',
  'TOKEN_ISSUER',
  'TOKEN_AUDIENCE',
  'BODY_LIMIT_BYTES',
  'OPERATOR_CLIENT_ID',
  'OPERATOR_CLIENT_SECRET',
  'KEY_ENCRYPTION_KEY',
  'ROSTER_EVENTS_CURSOR_SECRET',
  'ROSTER_EVENTS_RETENTION_DAYS',
  'ROSTER_EVENTS_COMPACTION_INTERVAL_MS',
  'ACCESS_TOKEN_TTL_SECONDS',
  'JWKS_URL',
  'JWKS_CACHE_SECONDS',
  'SERVICE_REGION',
  'REDIS_URL',
  'QUEUE_PREFIX',
  'WEBHOOK_TIMEOUT_MS',
  'WEBHOOK_RETRY_BASE_MS',
  'WEBHOOK_MAX_RETRIES',
  'WEBHOOK_CONCURRENCY',
  'WEBHOOK_RETRY_AFTER_MAX_SECONDS',
  'WEBHOOK_DISABLE_AFTER_FAILING_MS',
  'WEBHOOK_DISABLE_AFTER_UNDELIVERABLE',
  'PAYLOAD_PURGE_INTERVAL_MS',
  'PUBLIC_BASE_URL',
  'ALERTS_PUBLIC_BASE_URL',
  // rate limits and load shedding (libs/config/src/traffic-env.ts)
  'TRUST_PROXY',
  'RATE_LIMIT_ENABLED',
  'RATE_LIMIT_PREFIX',
  'RATE_LIMIT_WINDOW_SECONDS',
  'RATE_LIMIT_TOKEN_PER_CLIENT',
  'RATE_LIMIT_TOKEN_PER_ADDRESS',
  'RATE_LIMIT_TOKEN_FAILURES_PER_CLIENT_ADDRESS',
  'RATE_LIMIT_TOKEN_FAILURES_PER_ADDRESS',
  'RATE_LIMIT_READ_PER_CLIENT',
  'RATE_LIMIT_READ_PER_TENANT',
  'RATE_LIMIT_WRITE_PER_CLIENT',
  'RATE_LIMIT_WRITE_PER_TENANT',
  'RATE_LIMIT_GRADEBOOK_WRITE_PER_CLIENT',
  'RATE_LIMIT_GRADEBOOK_WRITE_PER_TENANT',
  'RATE_LIMIT_ALERT_SUBMISSIONS',
  'RATE_LIMIT_ANONYMOUS_PER_ADDRESS',
  'RATE_LIMIT_SIGN_IN_PER_ADDRESS',
  'RATE_LIMIT_SIGN_IN_ASSETS_PER_ADDRESS',
  'SHED_EVENT_LOOP_LAG_MS',
  'SHED_DB_POOL_WAIT_MS',
  'SHED_RETRY_AFTER_SECONDS',
  // the migration runner: identity replication (libs/persistence/README.md)
  'REPLICATION_ROLE',
  'REPLICATION_SOURCE_URL',
  'REPLICATION_SUBSCRIPTION',
  ...SIGNIN_VARIABLES,
  // roster sources and the sync worker (apps/oneroster/src/sources)
  'ROSTER_SOURCE_ALLOW_HTTP',
  'ROSTER_SOURCE_ALLOW_PRIVATE_TARGETS',
  'ROSTER_SOURCE_ALLOWED_PORTS',
  'ROSTER_SYNC_WORK_DIR',
  'ROSTER_SFTP_PORT',
  'ROSTER_SFTP_ROOT',
  'ROSTER_SFTP_HOST_KEY',
]);

/**
 * Apps that write public links (OneRoster hrefs and Link headers) and so must be told the URL
 * clients reach them at, `PUBLIC_BASE_URL`: never guessed from a request's Host header.
 */
export const PUBLIC_URL_APPS: AppName[] = ['oneroster', 'alerts'];

/** The public URL of each stack that serves the rostering and alerts APIs (spec `{unified_url}`, `{regional_url}`). */
export const PUBLIC_URLS = {
  base: 'https://api.edu.example',
  'au-nsw': 'https://au-nsw.api.edu.example',
  sg: 'https://sg.api.edu.example',
} as const;

/** The region overlays and the SERVICE_REGION each one serves. */
export const REGION_OVERLAYS = { 'au-nsw': 'AU-NSW', sg: 'SG' } as const;

/** Entry point of each app and of the migration runner, relative to dist/ without extension. */
export const appEntry = (app: AppName): string =>
  app === 'roster-sync' ? 'apps/oneroster/src/sources/worker/main' : `apps/${app}/src/main`;
export const MIGRATE_ENTRY = 'libs/persistence/src/cli/migrate';
export const RUNNER = 'tools/runtime/run-dist.js';

/** Margin the dispatcher's shutdown grace period keeps above the webhook send timeout. */
export const SHUTDOWN_MARGIN_SECONDS = 15;
