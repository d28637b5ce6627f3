import { DynamicModule, Module } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { AuthModule } from '@edu/auth';
import { scopeBasesOf } from '@edu/domain';
import { HealthModule, LoggingModule, MetricsModule, readinessCheck } from '@edu/http';
import { PersistenceModule } from '@edu/persistence';
import { RedisPing } from '@edu/queue';
import { RosterSourcesRepository } from '../roster-sources.repository';
import { RosterSyncsRepository } from '../roster-syncs.repository';
import { SOURCES_SETTINGS } from '../sources-settings.token';
import { SyncPackagesRepository } from '../sync-packages.repository';
import { SyncQueueClient } from '../sync-queue.client';
import { SyncSettingsRepository } from '../sync-settings.repository';
import { HeldNotifier } from './held-notifier';
import { PackageStore } from './package-store';
import { RestAcquirer } from './rest-acquirer';
import { SftpAcquirer } from './sftp/sftp-acquirer';
import { SftpFolders } from './sftp/sftp-folders';
import { SftpPackageWatcher } from './sftp/package-watcher';
import { SftpServer } from './sftp/sftp-server';
import { SyncJobs } from './sync-jobs';
import { SyncMetrics } from './sync-metrics';
import { SyncRunner } from './sync-runner';
import { SyncUpkeep } from './upkeep';
import type { RosterSyncWorkerEnv } from './worker.env';

/**
 * The roster sync worker (design §11, scale.md principle 8): BullMQ jobs of the roster sync
 * queue (pulls, SFTP packages, approved syncs, announcements), the SFTP endpoint and its package
 * watcher, and upkeep. Its HTTP port serves health and metrics only.
 */
@Module({})
export class RosterSyncWorkerModule {
  static forRoot(env: RosterSyncWorkerEnv): DynamicModule {
    const redis = new RedisPing(env.REDIS_URL);
    return {
      module: RosterSyncWorkerModule,
      global: true,
      imports: [
        LoggingModule.forRoot({ level: env.LOG_LEVEL, service: 'roster-sync' }),
        PersistenceModule.forRoot({
          url: env.DATABASE_URL,
          poolSize: env.DB_POOL_SIZE,
          applicationName: 'roster-sync',
        }),
        MetricsModule,
        HealthModule.forRoot({
          inject: [DataSource],
          useFactory: (ds: DataSource) => [
            readinessCheck('postgres', () => ds.query('SELECT 1')),
            readinessCheck('redis', () => redis.ping()),
          ],
        }),
        // No route takes tokens; an empty key set refuses any that arrive (deny by default stays on).
        AuthModule.forRootAsync({
          useFactory: () => ({
            issuer: env.TOKEN_ISSUER,
            audience: env.TOKEN_AUDIENCE,
            scopeBases: scopeBasesOf(env),
            keys: { getKey: async () => Promise.reject(new Error('no keys')) },
          }),
        }),
      ],
      providers: [
        { provide: SOURCES_SETTINGS, useValue: env },
        { provide: SftpFolders, useValue: new SftpFolders(env.ROSTER_SFTP_ROOT) },
        { provide: 'REDIS_PING', useValue: { onModuleDestroy: () => redis.close() } },
        RosterSourcesRepository,
        RosterSyncsRepository,
        SyncSettingsRepository,
        SyncPackagesRepository,
        {
          provide: PackageStore,
          inject: [SyncPackagesRepository],
          useFactory: (r: SyncPackagesRepository) => new PackageStore(r),
        },
        SyncQueueClient,
        SyncMetrics,
        HeldNotifier,
        RestAcquirer,
        SftpAcquirer,
        SyncRunner,
        SyncJobs,
        SyncUpkeep,
        SftpServer,
        SftpPackageWatcher,
      ],
      exports: [SOURCES_SETTINGS],
    };
  }
}
