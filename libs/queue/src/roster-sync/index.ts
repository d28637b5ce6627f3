export * from './roster-sync-jobs';
export * from './roster-sync-queue';
export * from './roster-sync-worker';
export * from './schedule';
