export * from './queue.module';
export * from './queues';
export * from './redis-connection';
