import { Logger } from '@nestjs/common';
import { standardWebhookHeaders, type SignedWebhookToken, type WebhookTokenSigner } from '@edu/signing';
import { retryDelayMs } from '@edu/queue';
import type { AttemptOutcome, DeliveryToSend } from '@edu/persistence';
import type { MessageTailCache } from './message-tail-cache';
import { deliveryBody } from './payloads';
import type { WebhookSecrets } from './webhook-secrets';
import type { WebhookSender } from './webhook-sender';

export interface AttemptSettings {
  retryBaseMs: number;
  alertsBaseUrl: string | undefined;
  workerId: string;
}

const SIGNING_ERROR_LOG_EVERY_MS = 10_000;

/** Signing failed (key store unreachable): our fault, so the attempt is not counted. */
export class SigningUnavailableError extends Error {}

/** A signed request: the token as the body and the Standard Webhooks headers over it. */
interface SignedRequest {
  signed: SignedWebhookToken;
  headers: Record<string, string>;
}

/**
 * One attempt of one delivery: sign a fresh token (same `jti` on every attempt; a full payload's
 * message end comes encoded from the per-message cache) and the Standard Webhooks headers over
 * it, POST it, and turn the answer into the delivery's next state (delivered, awaiting a retry,
 * or undeliverable when `final`).
 */
export class DeliveryAttempt {
  private readonly logger = new Logger('DeliveryAttempt');
  private lastSigningError = 0;

  constructor(
    private readonly signer: WebhookTokenSigner,
    private readonly sender: WebhookSender,
    private readonly tails: MessageTailCache,
    private readonly secrets: WebhookSecrets,
    private readonly s: AttemptSettings,
  ) {}

  async run(d: DeliveryToSend, attemptNumber: number, final: boolean): Promise<AttemptOutcome> {
    const { signed, headers } = await this.sign(d);
    const url = d.endpoint as string;
    const sent = await this.sender.send(url, signed.token, { ...headers, 'webhook-attempt': String(attemptNumber) });
    const delivered = sent.errorCode === null;
    const status = delivered ? 'delivered' : final ? 'undeliverable' : 'awaiting_retry';
    return {
      deliveryId: d.id,
      messageId: d.message_id,
      attemptNumber,
      status,
      dueAt:
        status === 'awaiting_retry' ? new Date(Date.now() + retryDelayMs(this.s.retryBaseMs, attemptNumber)) : null,
      startedAt: sent.startedAt,
      durationMs: sent.durationMs,
      url,
      resolvedIp: sent.resolvedIp,
      kid: signed.kid,
      requestBytes: signed.token.length,
      responseStatus: sent.status,
      errorCode: sent.errorCode,
      errorMessage: sent.errorMessage,
      responseExcerpt: sent.excerpt,
      workerId: this.s.workerId,
    };
  }

  /** The token and, over it, the Standard Webhooks headers (`webhook-id` = the delivery id = `jti`). */
  private async sign(d: DeliveryToSend): Promise<SignedRequest> {
    const body = deliveryBody(d, this.s.alertsBaseUrl);
    const bodyTail = body.endsWithMessage ? await this.tails.get(body.endsWithMessage, body.withhold) : undefined;
    try {
      const signed = await this.signer.sign({
        appId: d.app_id,
        deliveryId: d.id,
        subject: body.subject,
        tenantId: d.tenant_id,
        type: body.type,
        bodyClaim: body.claim,
        bodyJson: body.json,
        bodyTail,
      });
      const headers = standardWebhookHeaders(d.id, Math.floor(Date.now() / 1000), signed.token, this.secrets.of(d));
      return { signed, headers };
    } catch (err) {
      // Every queued job hits this while the key is missing: say so once in a while, not per job.
      if (Date.now() - this.lastSigningError > SIGNING_ERROR_LOG_EVERY_MS) {
        this.lastSigningError = Date.now();
        this.logger.error({ err, deliveryId: d.id }, 'Cannot sign deliveries; they wait without spending attempts');
      }
      throw new SigningUnavailableError(err instanceof Error ? err.message : String(err));
    }
  }
}
