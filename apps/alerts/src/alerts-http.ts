import type { HttpAppOptions } from '@edu/http';
import type { AlertsEnv } from './config/alerts.env';

/**
 * How the alerts service parses bodies, for main.ts and the tests alike: partner routes keep the
 * default limits; the alert generator's batch submission takes up to 1,000 messages, so it gets
 * a larger body (`MESSAGES_BODY_LIMIT_BYTES`) and room for the objects such a batch holds.
 */
export function alertsHttpOptions(env: AlertsEnv): Pick<HttpAppOptions, 'bodyLimitBytes' | 'largeJsonRoutes'> {
  return {
    bodyLimitBytes: env.BODY_LIMIT_BYTES,
    largeJsonRoutes: [
      { path: '/v2/alerts/messages', bodyLimitBytes: env.MESSAGES_BODY_LIMIT_BYTES, maxContainers: 1_000_000 },
    ],
  };
}
