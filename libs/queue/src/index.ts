export * from './delivery-jobs';
export * from './delivery-queue';
export * from './delivery-schedule';
export * from './queue.module';
export * from './queues';
export * from './redis-connection';
export * from './standalone-delivery-queue';
export * from './roster-sync';
