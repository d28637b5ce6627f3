import { RosterSourceEntity } from './roster-source.entity';
import { RosterSyncEntity } from './roster-sync.entity';
import { RosterSyncPackageEntity } from './roster-sync-package.entity';
import { RosterSyncSettingsEntity } from './roster-sync-settings.entity';

export * from './roster-source.entity';
export * from './roster-sync.entity';
export * from './roster-sync-package.entity';
export * from './roster-sync-settings.entity';

/** Roster sources and their syncs (apps/oneroster/src/sources): regional, tenant-keyed, no key to `tenants`. */
export const ROSTER_SYNC_ENTITIES = [
  RosterSourceEntity,
  RosterSyncEntity,
  RosterSyncPackageEntity,
  RosterSyncSettingsEntity,
];
