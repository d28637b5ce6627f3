import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { ApiError, ApiErrorCode, webhookTargetProblem, type Principal, type WebhookTargetPolicy } from '@edu/domain';
import { WebhookEntity } from '@edu/persistence';
import { AlertsEnv } from '../config/alerts.env';
import type { CreateWebhookDto, UpdateWebhookDto, WebhookActionResult, WebhookView } from './dto/webhook.dto';

const toView = (w: WebhookEntity): WebhookView => ({ webhook_id: w.id, endpoint: w.endpoint, type: w.type });

/** Webhook registrations of the calling app (spec 4.3: an app acts on its own webhooks only). */
@Injectable()
export class WebhooksService {
  private readonly policy: WebhookTargetPolicy;

  constructor(
    @InjectDataSource() private readonly ds: DataSource,
    env: AlertsEnv,
  ) {
    this.policy = { allowHttp: env.WEBHOOK_ALLOW_HTTP, allowPrivate: env.WEBHOOK_ALLOW_PRIVATE_TARGETS };
  }

  private get repo() {
    return this.ds.getRepository(WebhookEntity);
  }

  async list(who: Principal): Promise<WebhookView[]> {
    const rows = await this.repo.find({ where: { appId: who.appId }, order: { createdAt: 'ASC', id: 'ASC' } });
    return rows.map(toView);
  }

  async get(who: Principal, id: string): Promise<WebhookView> {
    return toView(await this.find(who, id));
  }

  async create(who: Principal, dto: CreateWebhookDto): Promise<WebhookActionResult> {
    this.checkEndpoint(dto.endpoint);
    const saved = await this.repo.save(this.repo.create({ appId: who.appId, endpoint: dto.endpoint, type: dto.type }));
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
    if (Object.keys(updated).length > 0) await this.repo.save(hook);
    return { webhook_id: hook.id, action: 'updateWebhook', success: true, updated_props: updated };
  }

  async remove(who: Principal, id: string): Promise<WebhookActionResult> {
    const result = await this.repo.delete({ id, appId: who.appId });
    if (!result.affected) throw ApiError.notFound('Webhook');
    return { webhook_id: id, action: 'deleteWebhook', success: true };
  }

  private async find(who: Principal, id: string): Promise<WebhookEntity> {
    const hook = await this.repo.findOne({ where: { id, appId: who.appId } });
    if (!hook) throw ApiError.notFound('Webhook');
    return hook;
  }

  private checkEndpoint(endpoint: string): void {
    const problem = webhookTargetProblem(endpoint, this.policy);
    if (problem) throw new ApiError(ApiErrorCode.ValidationFailed, `endpoint: ${problem}`, { fields: [{ field: 'endpoint', problems: [problem] }] });
  }
}
