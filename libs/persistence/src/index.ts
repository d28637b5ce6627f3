export * from './data-source';
export * from './entities';
export * from './migrate';
export { MIGRATIONS } from './migrations';
export * from './persistence.module';
