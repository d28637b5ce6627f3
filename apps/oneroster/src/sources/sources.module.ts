import { Module } from '@nestjs/common';
import { RosterSourcesController } from './roster-sources.controller';
import { RosterSourcesRepository } from './roster-sources.repository';
import { RosterSourcesService } from './roster-sources.service';
import { RosterSyncsController } from './roster-syncs.controller';
import { RosterSyncsRepository } from './roster-syncs.repository';
import { RosterSyncsService } from './roster-syncs.service';
import { SourcesAccess } from './sources-access';
import { SyncPackagesRepository } from './sync-packages.repository';
import { SyncQueueClient } from './sync-queue.client';
import { SyncSettingsController } from './sync-settings.controller';
import { SyncSettingsRepository } from './sync-settings.repository';
import { SyncSettingsService } from './sync-settings.service';

/**
 * Roster sources and syncs on the OneRoster host (design §11). The API only records and queues:
 * pulls, SFTP packages, diffs and imports run in the sync worker (`worker/`). Needs the
 * `SOURCES_SETTINGS` provider (the process's env) from the importing module.
 */
@Module({
  controllers: [RosterSourcesController, RosterSyncsController, SyncSettingsController],
  providers: [
    RosterSourcesRepository,
    RosterSyncsRepository,
    SyncSettingsRepository,
    SyncPackagesRepository,
    SourcesAccess,
    SyncQueueClient,
    RosterSourcesService,
    RosterSyncsService,
    SyncSettingsService,
  ],
})
export class SourcesModule {}
