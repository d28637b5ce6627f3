import { IsInt, IsOptional, IsString, IsUrl, Max, Min, MinLength, ValidateIf } from 'class-validator';
import {
  DEMO_KEY_ENCRYPTION_KEY,
  isProduction,
  RefuseInProduction,
  ResourceServerEnv,
  Secret,
  ToInt,
  URL_OPTS,
  WithTrafficControl,
  WithWebhookDelivery,
} from '@edu/config';

/** The identity service's demo operator secret (printed by `npm start`; refused in production by both services). */
export const DEMO_OPERATOR_SECRET = 'demo-operator-secret-not-for-production';

/** Configuration of the alerts service (validated at boot). */
export class AlertsEnv extends WithTrafficControl(WithWebhookDelivery(ResourceServerEnv)) {
  override PORT = 3002;

  /**
   * Largest body of `POST /v2/alerts/messages` (bytes): a batch of up to 1,000 messages, or a few
   * full messages of several MB. Other routes keep BODY_LIMIT_BYTES.
   */
  @ToInt()
  @IsInt()
  @Min(1024)
  @Max(1024 ** 3)
  MESSAGES_BODY_LIMIT_BYTES = 32 * 1024 * 1024;

  /** How long `POST /v2/alerts/webhook/:id/test` waits for the attempt (a little above the 30 s delivery timeout). */
  @ToInt()
  @IsInt()
  @Min(100)
  @Max(120_000)
  WEBHOOK_TEST_WAIT_MS = 35_000;

  /**
   * Seals the webhooks' Standard Webhooks secrets at rest (the same value as the identity service
   * and the dispatcher, which opens them to sign deliveries).
   */
  @Secret()
  @IsString()
  @MinLength(32)
  @RefuseInProduction(DEMO_KEY_ENCRYPTION_KEY)
  KEY_ENCRYPTION_KEY = DEMO_KEY_ENCRYPTION_KEY;

  /**
   * Public origin of this API (`https://api.edu.example`, or the regional host): the delivery
   * portal's links are built on it, never on a request's Host. Required in production;
   * `http://localhost:<PORT>` elsewhere (see `alertsPublicBaseUrl`).
   */
  @ValidateIf((o: AlertsEnv) => o.NODE_ENV === 'production' || o.PUBLIC_BASE_URL !== undefined)
  @IsUrl(URL_OPTS, {
    message: 'PUBLIC_BASE_URL must be the public http(s) origin of the alerts API (required in production)',
  })
  PUBLIC_BASE_URL?: string;

  /** The operator's client id (the identity service's OPERATOR_CLIENT_ID): user name of the queue dashboard. */
  @IsString()
  @MinLength(3)
  OPERATOR_CLIENT_ID = 'operator';

  /**
   * The operator's client secret (the identity service's OPERATOR_CLIENT_SECRET): password of the
   * queue dashboard at /admin/queues. Unset: the demo secret outside production, and no dashboard
   * in production (see `queueDashboardCredentials`).
   */
  @IsOptional()
  @Secret()
  @IsString()
  @MinLength(16)
  @RefuseInProduction(DEMO_OPERATOR_SECRET)
  OPERATOR_CLIENT_SECRET?: string;
}

/** HTTP Basic credentials of the queue dashboard, or undefined when it is off. */
export function queueDashboardCredentials(env: AlertsEnv): { username: string; password: string } | undefined {
  const password = env.OPERATOR_CLIENT_SECRET ?? (isProduction(env) ? undefined : DEMO_OPERATOR_SECRET);
  return password === undefined ? undefined : { username: env.OPERATOR_CLIENT_ID, password };
}

/** The origin the delivery portal's links are built on, without a trailing slash. */
export function alertsPublicBaseUrl(env: AlertsEnv): string {
  return (env.PUBLIC_BASE_URL ?? `http://localhost:${env.PORT}`).replace(/\/+$/, '');
}
