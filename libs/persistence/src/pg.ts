/**
 * `@edu/persistence/pg`: what code running its own SQL on a pg connection needs, without TypeORM,
 * the entities or Nest. The import worker loads only this: the full entry point costs a fresh
 * thread about 0.7 s of module loading (some 1,100 modules) before the first row is read.
 */
export { connectionSettings, type DatabaseOptions } from './connection-settings';
export { inTransaction, TransactionAbandonedError } from './database-pool';
export { roleGroupOf, type RosterRole, type RosterRoleGroup } from './entities/roster/roster-roles';
export type {
  RosterImportFileCounts,
  RosterImportIssue,
  RosterImportMode,
  RosterImportStatus,
} from './entities/roster/roster-import.entity';
export { ROSTER_EVENTS_PER_CHUNK } from './migrations/1765200000000-ChunkRosterEvents';
