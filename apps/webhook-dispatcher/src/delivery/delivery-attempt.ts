import { Logger } from '@nestjs/common';
import { standardWebhookHeaders, type SignedWebhookToken, type WebhookTokenSigner } from '@edu/signing';
import { retryDelayMs } from '@edu/queue';
import type { AttemptOutcome, DeliveryToSend } from '@edu/persistence';
import type { MessageTailCache } from './message-tail-cache';
import { deliveryBody } from './payloads';
import { retryAfterDecision, type RetryAfterDecision, type RetryAfterSettings } from './retry-after';
import type { WebhookSecrets } from './webhook-secrets';
import type { SendResult, WebhookSender } from './webhook-sender';

export interface AttemptSettings {
  retryBaseMs: number;
  alertsBaseUrl: string | undefined;
  workerId: string;
  retryAfter: RetryAfterSettings;
}

/** An attempt's outcome, and how long until the next attempt when one is due (the schedule, or longer by Retry-After). */
export type AttemptResult = AttemptOutcome & { nextDelayMs: number | null; retryAfter?: RetryAfterDecision };

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

  async run(d: DeliveryToSend, attemptNumber: number, final: boolean): Promise<AttemptResult> {
    const { signed, headers } = await this.sign(d);
    const url = d.endpoint as string;
    const sent = await this.sender.send(url, signed.token, { ...headers, 'webhook-attempt': String(attemptNumber) });
    const status = sent.errorCode === null ? 'delivered' : final ? 'undeliverable' : 'awaiting_retry';
    const asked = status === 'awaiting_retry' ? this.retryAfter(d, sent) : undefined;
    const nextDelayMs =
      status === 'awaiting_retry' ? Math.max(retryDelayMs(this.s.retryBaseMs, attemptNumber), asked?.ms ?? 0) : null;
    return {
      deliveryId: d.id,
      webhookId: d.webhook_id,
      tenantId: d.tenant_id,
      messageId: d.message_id,
      attemptNumber,
      status,
      dueAt: nextDelayMs === null ? null : new Date(Date.now() + nextDelayMs),
      nextDelayMs,
      retryAfter: asked,
      // A test delivery only reports what the endpoint answers; real deliveries keep the webhook's
      // health (a 410 disables it at once, failing too long or too often too).
      endpointGone: sent.status === 410 && d.trigger !== 'test',
      affectsHealth: d.trigger !== 'test',
      startedAt: sent.startedAt,
      durationMs: sent.durationMs,
      url,
      resolvedIp: sent.resolvedIp,
      kid: signed.kid,
      requestBytes: signed.token.length,
      responseStatus: sent.status,
      errorCode: sent.errorCode,
      errorMessage: asked ? `${sent.errorMessage}; ${describe(asked)}` : sent.errorMessage,
      responseExcerpt: sent.excerpt,
      workerId: this.s.workerId,
    };
  }

  /** The wait a 429 or 503 asks for with Retry-After; a wait beyond the cap is cut to it and logged. */
  private retryAfter(d: DeliveryToSend, sent: SendResult): RetryAfterDecision | undefined {
    const asked = retryAfterDecision(sent.status, sent.retryAfter, this.s.retryAfter);
    if (asked?.capped)
      this.logger.warn(
        { deliveryId: d.id, webhookId: d.webhook_id, askedSeconds: asked.askedSeconds, cap: asked.honouredSeconds },
        'Receiver asked for a Retry-After beyond the cap; waiting the cap instead',
      );
    return asked;
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

/** How the attempt log explains a later next attempt. */
function describe(a: RetryAfterDecision): string {
  return a.capped
    ? `Retry-After ${a.askedSeconds} s capped at ${a.honouredSeconds} s`
    : `Retry-After ${a.askedSeconds} s honoured`;
}
