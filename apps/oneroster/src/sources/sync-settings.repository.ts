import { Injectable } from '@nestjs/common';
import { DataSource, type Repository } from 'typeorm';
import { RosterSyncSettingsEntity } from '@edu/persistence';

/** The guard's default: a sync deleting more than this share of a type's active rows is held. */
export const DEFAULT_DELETION_THRESHOLD_PERCENT = 10;

export type SyncSettings = Pick<
  RosterSyncSettingsEntity,
  'deletionThresholdPercent' | 'notifyUrl' | 'notifySecretEncrypted'
>;

/** Every statement on `roster_sync_settings`; a tenant without a row has the defaults. */
@Injectable()
export class SyncSettingsRepository {
  private readonly repo: Repository<RosterSyncSettingsEntity>;

  constructor(ds: DataSource) {
    this.repo = ds.getRepository(RosterSyncSettingsEntity);
  }

  async get(tenantId: string): Promise<SyncSettings & { updatedAt: Date | null }> {
    const row = await this.repo.findOneBy({ tenantId });
    return (
      row ?? {
        deletionThresholdPercent: DEFAULT_DELETION_THRESHOLD_PERCENT,
        notifyUrl: null,
        notifySecretEncrypted: null,
        updatedAt: null,
      }
    );
  }

  async put(tenantId: string, settings: SyncSettings): Promise<RosterSyncSettingsEntity> {
    await this.repo.upsert({ tenantId, ...settings }, ['tenantId']);
    return (await this.repo.findOneBy({ tenantId }))!;
  }
}
