import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { isUuid } from '@edu/domain';
import { AppEntity, WebhookDeliveriesRepository, WebhookEntity, type WebhookType } from '@edu/persistence';

/** Webhook registrations. Every query is scoped by the owning app's id. */
@Injectable()
export class WebhookRepository {
  constructor(
    @InjectDataSource() private readonly ds: DataSource,
    private readonly deliveries: WebhookDeliveriesRepository,
  ) {}

  private get repo() {
    return this.ds.getRepository(WebhookEntity);
  }

  listForApp(appId: string): Promise<WebhookEntity[]> {
    return this.repo.find({ where: { appId }, order: { createdAt: 'ASC', id: 'ASC' } });
  }

  findForApp(appId: string, id: string): Promise<WebhookEntity | null> {
    return this.repo.findOne({ where: { id, appId } });
  }

  /** Whether the app's row is here (a regional database holds a replicated copy of `apps`). */
  async appExists(appId: string): Promise<boolean> {
    if (!isUuid(appId)) return false;
    return this.ds.getRepository(AppEntity).existsBy({ id: appId });
  }

  create(appId: string, endpoint: string, type: WebhookType): Promise<WebhookEntity> {
    return this.repo.save(this.repo.create({ appId, endpoint, type }));
  }

  async update(hook: WebhookEntity): Promise<void> {
    await this.repo.save(hook);
  }

  /**
   * Deletes the app's webhook and, in the same transaction, cancels its deliveries that have not
   * finished: they are never sent. Returns false when the app has no such webhook.
   */
  deleteAndCancelDeliveries(appId: string, id: string): Promise<boolean> {
    return this.ds.transaction(async (em) => {
      const result = await em.delete(WebhookEntity, { id, appId });
      if (!result.affected) return false;
      await this.deliveries.cancelOpenOfWebhook(em, id);
      return true;
    });
  }
}
