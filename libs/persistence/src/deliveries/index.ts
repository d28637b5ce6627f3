export * from './columns-of';
export * from './delivery-sql';
export * from './dispatch.repository';
