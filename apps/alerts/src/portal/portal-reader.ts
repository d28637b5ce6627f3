import { Inject, Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { SCOPE_CATALOG } from '@edu/auth';
import type { ScopeCatalog, TenantPrincipal } from '@edu/domain';
import { AppEntity, TenantEntity, WebhookDeliveriesRepository } from '@edu/persistence';
import { DeliveriesService } from '../deliveries/deliveries.service';
import { toAttemptView } from '../deliveries/delivery.view';
import { WebhooksService } from '../webhooks/webhooks.service';
import type { PortalData, PortalDelivery } from './portal-page';
import type { PortalSession } from './portal-sessions';

/** Deliveries shown per webhook (newest first; the API's delivery log has them all). */
const RECENT = 15;

/**
 * What the portal shows and does, through the same services as the partner API, acting as the
 * session's app at its tenant (with the webhooks scope only): so it sees exactly what the app's
 * own token would, and every rule of the API (ownership, sharing, retention) holds here too.
 */
@Injectable()
export class PortalReader {
  constructor(
    @InjectDataSource() private readonly ds: DataSource,
    private readonly webhooks: WebhooksService,
    private readonly deliveries: DeliveriesService,
    private readonly store: WebhookDeliveriesRepository,
    @Inject(SCOPE_CATALOG) private readonly catalog: ScopeCatalog,
  ) {}

  /** The session's app at its tenant, as a token of it holding `alerts/webhooks.write` would be. */
  principal(s: PortalSession): TenantPrincipal {
    return {
      kind: 'tenant',
      tenantId: s.tenantId,
      appId: s.appId,
      clientId: 'delivery-portal',
      scopes: new Set([this.catalog.uri('alerts.webhooks.write')]),
      tokenId: s.id,
    };
  }

  async load(s: PortalSession): Promise<PortalData> {
    const who = this.principal(s);
    const [app, tenant, hooks] = await Promise.all([
      this.ds.getRepository(AppEntity).findOne({ select: { name: true }, where: { id: s.appId } }),
      this.ds.getRepository(TenantEntity).findOne({ select: { name: true }, where: { id: s.tenantId } }),
      this.webhooks.list(who),
    ]);
    const pages = await Promise.all(hooks.map((h) => this.deliveries.list(who, h.webhook_id, { limit: RECENT })));
    const attempts = await this.store.attemptsOf(
      s.tenantId,
      pages.flatMap((p) => p.deliveries.map((d) => d.delivery_id)),
    );
    const of = (id: string) => attempts.filter((a) => a.deliveryId === id).map(toAttemptView);
    return {
      appName: app?.name ?? 'Your app',
      tenantName: tenant?.name ?? 'this school',
      expiresAt: s.expiresAt,
      webhooks: hooks.map((hook, i) => ({
        hook,
        deliveries: pages[i].deliveries.map((d): PortalDelivery => ({ ...d, attempts: of(d.delivery_id) })),
      })),
    };
  }
}
