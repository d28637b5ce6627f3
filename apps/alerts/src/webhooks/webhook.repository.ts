import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { isUuid } from '@edu/domain';
import { AppEntity, WebhookDeliveriesRepository, WebhookEntity, type ReleasedDelivery } from '@edu/persistence';
import type { WebhookReceives } from './webhook-kinds';

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

  create(
    appId: string,
    endpoint: string,
    receives: WebhookReceives,
    sealedSecret: string,
    rateLimit: number | null,
  ): Promise<WebhookEntity> {
    return this.repo.save(this.repo.create({ appId, endpoint, ...receives, signingSecret: sealedSecret, rateLimit }));
  }

  /**
   * Makes `sealed` the app's webhook's secret; the one it replaces keeps signing for
   * `overlapSeconds` (none when 0, or when there was none). Returns when the old one stops, or
   * undefined when the app has no such webhook.
   */
  async rotateSecret(
    appId: string,
    id: string,
    sealed: string,
    overlapSeconds: number,
  ): Promise<{ previousUntil: Date | null } | undefined> {
    const [rows]: [{ previous_secret_expires_at: Date | null }[], number] = await this.ds.query(
      `UPDATE webhooks SET
         previous_signing_secret = CASE WHEN $4::int > 0 THEN signing_secret END,
         previous_secret_expires_at = CASE WHEN $4::int > 0 AND signing_secret IS NOT NULL THEN now() + $4::int * interval '1 second' END,
         signing_secret = $3, updated_at = now()
       WHERE id = $1 AND app_id = $2
       RETURNING previous_secret_expires_at`,
      [id, appId, sealed, overlapSeconds],
    );
    return rows[0] ? { previousUntil: rows[0].previous_secret_expires_at } : undefined;
  }

  /** Writes the partner's settings only: the dispatcher changes the status meanwhile, and a stale copy must not undo that. */
  async update(hook: WebhookEntity): Promise<void> {
    await this.repo.update(
      { id: hook.id, appId: hook.appId },
      { endpoint: hook.endpoint, type: hook.type, rateLimit: hook.rateLimit },
    );
  }

  /**
   * Re-enables the app's disabled webhook and, in the same transaction, makes its held
   * deliveries pending again; returns them (to queue after the commit), or undefined when the
   * webhook was not disabled (any more).
   */
  enable(appId: string, id: string): Promise<ReleasedDelivery[] | undefined> {
    return this.ds.transaction(async (em) => {
      const [rows]: [unknown[], number] = await em.query(
        `UPDATE webhooks SET status = 'active', disabled_reason = NULL, disabled_at = NULL,
                failing_since = NULL, consecutive_undeliverable = 0, updated_at = now()
          WHERE id = $1 AND app_id = $2 AND status = 'disabled' RETURNING id`,
        [id, appId],
      );
      if (rows.length === 0) return undefined;
      return this.deliveries.releaseHeld(em, id);
    });
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
