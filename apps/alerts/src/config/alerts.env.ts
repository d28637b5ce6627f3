import { IsInt, Max, Min } from 'class-validator';
import { ResourceServerEnv, ToInt, WithWebhookDelivery } from '@edu/config';

/** Configuration of the alerts service (validated at boot). */
export class AlertsEnv extends WithWebhookDelivery(ResourceServerEnv) {
  override PORT = 3002;

  /** How long `POST /v2/alerts/webhook/:id/test` waits for the attempt (a little above the 30 s delivery timeout). */
  @ToInt() @IsInt() @Min(100) @Max(120_000)
  WEBHOOK_TEST_WAIT_MS = 35_000;
}
