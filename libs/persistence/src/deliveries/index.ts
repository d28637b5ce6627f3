export * from './columns-of';
export * from './delivery-replay';
export * from './delivery-sql';
export * from './dispatch.repository';
export * from './webhook-deliveries.repository';
export * from './roster-event-deliveries';
export * from './payload-retention';
