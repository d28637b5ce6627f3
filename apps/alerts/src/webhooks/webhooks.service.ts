import { Injectable } from '@nestjs/common';
import { webhookTargetPolicy } from '@edu/config';
import { ApiError, ApiErrorCode, webhookTargetProblem, type Principal, type WebhookTargetPolicy } from '@edu/domain';
import type { WebhookEntity } from '@edu/persistence';
import { AlertsEnv } from '../config/alerts.env';
import { AlertsAccess } from '../tenancy/alerts-access';
import type { CreateWebhookDto, UpdateWebhookDto, WebhookActionResult, WebhookView } from './dto/webhook.dto';
import { WebhookRepository } from './webhook.repository';

const toView = (w: WebhookEntity): WebhookView => ({ webhook_id: w.id, endpoint: w.endpoint, type: w.type });

/** Webhook registrations of the calling app (spec 4.3: an app acts on its own webhooks only). */
@Injectable()
export class WebhooksService {
  private readonly policy: WebhookTargetPolicy;

  constructor(
    private readonly webhooks: WebhookRepository,
    private readonly access: AlertsAccess,
    env: AlertsEnv,
  ) {
    this.policy = webhookTargetPolicy(env);
  }

  async list(who: Principal): Promise<WebhookView[]> {
    await this.access.partnerTenant(who);
    return (await this.webhooks.listForApp(who.appId)).map(toView);
  }

  async get(who: Principal, id: string): Promise<WebhookView> {
    return toView(await this.find(who, id));
  }

  async create(who: Principal, dto: CreateWebhookDto): Promise<WebhookActionResult> {
    await this.access.partnerTenant(who);
    this.checkEndpoint(dto.endpoint);
    // The token proves the app exists in the identity database; on a regional host its row arrives
    // by replication a moment later. No foreign key holds webhooks to apps (libs/persistence/README.md).
    if (!(await this.webhooks.appExists(who.appId))) {
      throw new ApiError(
        ApiErrorCode.ServiceUnavailable,
        'This app is not known on this host yet (identity data reaches it within seconds): retry later',
      );
    }
    const saved = await this.webhooks.create(who.appId, dto.endpoint, dto.type);
    return { webhook_id: saved.id, action: 'newWebhook', success: true };
  }

  async update(who: Principal, id: string, dto: UpdateWebhookDto): Promise<WebhookActionResult> {
    if (dto.endpoint === undefined && dto.type === undefined) {
      throw new ApiError(ApiErrorCode.ValidationFailed, 'Supply at least one of "endpoint" and "type"');
    }
    if (dto.endpoint !== undefined) this.checkEndpoint(dto.endpoint);
    const hook = await this.find(who, id);
    const updated: WebhookActionResult['updated_props'] = {};
    if (dto.endpoint !== undefined && dto.endpoint !== hook.endpoint) updated.endpoint = hook.endpoint = dto.endpoint;
    if (dto.type !== undefined && dto.type !== hook.type) updated.type = hook.type = dto.type;
    if (Object.keys(updated).length > 0) await this.webhooks.update(hook);
    return { webhook_id: hook.id, action: 'updateWebhook', success: true, updated_props: updated };
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
