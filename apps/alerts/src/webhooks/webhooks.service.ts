import { Injectable } from '@nestjs/common';
import { webhookTargetPolicy } from '@edu/config';
import { ApiError, ApiErrorCode, webhookTargetProblem, type Principal, type WebhookTargetPolicy } from '@edu/domain';
import type { WebhookEntity } from '@edu/persistence';
import { AlertsEnv } from '../config/alerts.env';
import { DeliveryEnqueuer } from '../delivery-store/delivery-enqueuer';
import { AlertsAccess } from '../tenancy/alerts-access';
import type {
  CreateWebhookDto,
  RotatedSecret,
  RotateSecretDto,
  UpdateWebhookDto,
  WebhookActionResult,
  WebhookView,
} from './dto/webhook.dto';
import { WebhookKinds } from './webhook-kinds';
import { DEFAULT_SECRET_OVERLAP_SECONDS, WebhookSecretIssuer } from './webhook-secrets';
import { WebhookRepository } from './webhook.repository';

const iso = (d: Date | null): string | null => (d ? new Date(d).toISOString() : null);

/** The previous secret's end while it still signs (an expired overlap is not shown). */
const overlapUntil = (w: WebhookEntity): string | null =>
  w.previousSigningSecret && w.previousSecretExpiresAt && w.previousSecretExpiresAt.getTime() > Date.now()
    ? iso(w.previousSecretExpiresAt)
    : null;

export const toWebhookView = (w: WebhookEntity): WebhookView => ({
  webhook_id: w.id,
  endpoint: w.endpoint,
  type: w.type,
  kind: w.kind,
  filter: w.eventFilter,
  signing_secret_set: w.signingSecret !== null,
  previous_secret_expires_at: overlapUntil(w),
  status: w.status,
  disabled_reason: w.disabledReason,
  disabled_at: iso(w.disabledAt),
  failing_since: iso(w.failingSince),
  rate_limit: w.rateLimit,
});

/** Webhook registrations of the calling app (spec 4.3: an app acts on its own webhooks only). */
@Injectable()
export class WebhooksService {
  private readonly policy: WebhookTargetPolicy;

  constructor(
    private readonly webhooks: WebhookRepository,
    private readonly access: AlertsAccess,
    private readonly secrets: WebhookSecretIssuer,
    private readonly enqueuer: DeliveryEnqueuer,
    private readonly kinds: WebhookKinds,
    env: AlertsEnv,
  ) {
    this.policy = webhookTargetPolicy(env);
  }

  async list(who: Principal): Promise<WebhookView[]> {
    await this.access.partnerTenant(who);
    return (await this.webhooks.listForApp(who.appId)).map(toWebhookView);
  }

  async get(who: Principal, id: string): Promise<WebhookView> {
    return toWebhookView(await this.find(who, id));
  }

  async create(who: Principal, dto: CreateWebhookDto): Promise<WebhookActionResult> {
    await this.access.partnerTenant(who);
    this.checkEndpoint(dto.endpoint);
    const receives = this.kinds.receives(who, dto);
    // The token proves the app exists in the identity database; on a regional host its row arrives
    // by replication a moment later. No foreign key holds webhooks to apps (libs/persistence/README.md).
    if (!(await this.webhooks.appExists(who.appId))) {
      throw new ApiError(
        ApiErrorCode.ServiceUnavailable,
        'This app is not known on this host yet (identity data reaches it within seconds): retry later',
      );
    }
    const { secret, sealed } = this.secrets.issue();
    const saved = await this.webhooks.create(who.appId, dto.endpoint, receives, sealed, dto.rate_limit ?? null);
    return { webhook_id: saved.id, action: 'newWebhook', success: true, secret };
  }

  /**
   * A new Standard Webhooks secret for the webhook, shown this once; the replaced one keeps
   * signing beside it for the overlap (default 24 h), so receivers can switch without a gap.
   */
  async rotateSecret(who: Principal, id: string, dto: RotateSecretDto): Promise<RotatedSecret> {
    await this.access.partnerTenant(who);
    const { secret, sealed } = this.secrets.issue();
    const overlap = dto.overlap_seconds ?? DEFAULT_SECRET_OVERLAP_SECONDS;
    const rotated = await this.webhooks.rotateSecret(who.appId, id, sealed, overlap);
    if (!rotated) throw ApiError.notFound('Webhook');
    return { webhook_id: id, secret, previous_secret_expires_at: iso(rotated.previousUntil) };
  }

  /**
   * updateWebhook: endpoint and type, and `status: active` re-enables a disabled webhook (its held
   * deliveries are queued again, each continuing its schedule).
   */
  async update(who: Principal, id: string, dto: UpdateWebhookDto): Promise<WebhookActionResult> {
    // null is "not given", as the validation's @IsOptional reads it; but for rate_limit, where it removes the limit.
    if (dto.endpoint == null && dto.type == null && dto.status == null && dto.rate_limit === undefined) {
      throw new ApiError(
        ApiErrorCode.ValidationFailed,
        'Supply at least one of "endpoint", "type", "status" and "rate_limit"',
      );
    }
    if (dto.endpoint != null) this.checkEndpoint(dto.endpoint);
    const hook = await this.find(who, id);
    const updated: WebhookActionResult['updated_props'] = {};
    if (dto.endpoint != null && dto.endpoint !== hook.endpoint) updated.endpoint = hook.endpoint = dto.endpoint;
    if (dto.type != null && dto.type !== hook.type) updated.type = hook.type = dto.type;
    if (dto.rate_limit !== undefined && dto.rate_limit !== hook.rateLimit)
      updated.rate_limit = hook.rateLimit = dto.rate_limit;
    if (Object.keys(updated).length > 0) await this.webhooks.update(hook);
    if (dto.status === 'active' && (await this.enable(who, hook))) updated.status = 'active';
    return { webhook_id: hook.id, action: 'updateWebhook', success: true, updated_props: updated };
  }

  /** Re-enables a disabled webhook and queues its held deliveries; false when it was not disabled. */
  async enable(who: Principal, hook: WebhookEntity): Promise<boolean> {
    const released = await this.webhooks.enable(who.appId, hook.id);
    if (!released) return false;
    await this.enqueuer.requeue(
      released.map((d) =>
        d.attempt_count > 0
          ? { kind: 'requeued', deliveryId: d.id, attemptOffset: d.attempt_count }
          : { kind: 'first-attempt', deliveryId: d.id },
      ),
    );
    return true;
  }

  /** Deletes the webhook; deliveries still under way end as `cancelled` and are never sent. */
  async remove(who: Principal, id: string): Promise<WebhookActionResult> {
    await this.access.partnerTenant(who);
    if (!(await this.webhooks.deleteAndCancelDeliveries(who.appId, id))) throw ApiError.notFound('Webhook');
    return { webhook_id: id, action: 'deleteWebhook', success: true };
  }

  /** The calling app's webhook; another app's id answers exactly like an unknown one (404). */
  async find(who: Principal, id: string): Promise<WebhookEntity> {
    return (await this.owned(who, id)).hook;
  }

  /** The token's tenant and the calling app's webhook, each looked up once (404 for another app's id). */
  async owned(who: Principal, id: string): Promise<{ tenantId: string; hook: WebhookEntity }> {
    const tenantId = await this.access.partnerTenant(who);
    const hook = await this.webhooks.findForApp(who.appId, id);
    if (!hook) throw ApiError.notFound('Webhook');
    return { tenantId, hook };
  }

  private checkEndpoint(endpoint: string): void {
    const problem = webhookTargetProblem(endpoint, this.policy);
    if (problem)
      throw new ApiError(ApiErrorCode.ValidationFailed, `endpoint: ${problem}`, {
        fields: [{ field: 'endpoint', problems: [problem] }],
      });
  }
}
