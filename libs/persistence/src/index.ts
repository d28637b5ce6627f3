export * from './data-source';
export * from './entities';
export * from './migrate';
export * from './orphans';
export * from './replication';
export { MIGRATIONS } from './migrations';
export * from './persistence.module';
export * from './pool-probe';
export * from './deployment-quotas';
