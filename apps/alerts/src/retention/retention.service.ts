import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { ApiError, type Principal } from '@edu/domain';
import { expungeMessagePayload, PAYLOAD_RETENTION_DAYS, TenantDeliverySettingsEntity } from '@edu/persistence';
import type { DeliverySettingsView, ExpungedView } from './dto/retention.dto';
import { TenantAdminAccess } from './tenant-admin-access';

/** A tenant's payload retention and the expunge of one message's payload (operator and school admins). */
@Injectable()
export class RetentionService {
  constructor(
    @InjectDataSource() private readonly ds: DataSource,
    private readonly access: TenantAdminAccess,
  ) {}

  private get settings() {
    return this.ds.getRepository(TenantDeliverySettingsEntity);
  }

  async get(who: Principal, tenantParam: string): Promise<DeliverySettingsView> {
    const tenantId = await this.access.tenant(who, tenantParam);
    return this.view(tenantId, await this.settings.findOneBy({ tenantId }));
  }

  /** Sets the retention; the dispatcher's next purge applies it (shortening it purges what is now past it). */
  async update(who: Principal, tenantParam: string, days: number): Promise<DeliverySettingsView> {
    const tenantId = await this.access.tenant(who, tenantParam);
    await this.settings.upsert({ tenantId, deliveryPayloadRetentionDays: days }, ['tenantId']);
    return this.view(tenantId, await this.settings.findOneBy({ tenantId }));
  }

  /** Purges one message's payload now; its metadata and delivery log stay. Idempotent. */
  async expunge(who: Principal, tenantParam: string, messageId: string): Promise<ExpungedView> {
    const tenantId = await this.access.tenant(who, tenantParam);
    const done = await expungeMessagePayload(this.ds, tenantId, messageId.toLowerCase());
    if (!done) throw ApiError.notFound('Message');
    return {
      message_id: messageId.toLowerCase(),
      payload_purged_at: new Date(done.purgedAt).toISOString(),
      deliveries_expired: done.expired,
    };
  }

  private view(tenantId: string, row: TenantDeliverySettingsEntity | null): DeliverySettingsView {
    return {
      tenant_id: tenantId,
      delivery_payload_retention_days: row?.deliveryPayloadRetentionDays ?? PAYLOAD_RETENTION_DAYS.default,
      customised: row !== null,
    };
  }
}
