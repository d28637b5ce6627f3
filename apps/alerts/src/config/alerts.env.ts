import { IsInt, Max, Min } from 'class-validator';
import { ResourceServerEnv, ToInt, WithWebhookDelivery } from '@edu/config';

/** Configuration of the alerts service (validated at boot). */
export class AlertsEnv extends WithWebhookDelivery(ResourceServerEnv) {
  override PORT = 3002;

  /**
   * Largest body of `POST /v2/alerts/messages` (bytes): a batch of up to 1,000 messages, or a few
   * full messages of several MB. Other routes keep BODY_LIMIT_BYTES.
   */
  @ToInt() @IsInt() @Min(1024) @Max(1024 ** 3)
  MESSAGES_BODY_LIMIT_BYTES = 32 * 1024 * 1024;

  /** How long `POST /v2/alerts/webhook/:id/test` waits for the attempt (a little above the 30 s delivery timeout). */
  @ToInt() @IsInt() @Min(100) @Max(120_000)
  WEBHOOK_TEST_WAIT_MS = 35_000;
}
