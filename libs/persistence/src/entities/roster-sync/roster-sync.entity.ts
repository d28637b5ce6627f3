import { Column, CreateDateColumn, Entity, Index, JoinColumn, ManyToOne, PrimaryGeneratedColumn } from 'typeorm';
import { RosterSourceEntity, type RosterSourceType } from './roster-source.entity';

export type RosterSyncStatus = 'queued' | 'running' | 'succeeded' | 'failed' | 'held' | 'rejected';
export type RosterSyncTrigger = 'schedule' | 'manual' | 'sftp';
export type RosterSyncMode = 'full' | 'delta';

/** What a sync would change in one object type, measured before anything is written. */
export interface RosterSyncTypeDiff {
  /** Active rows of the type before the sync. */
  active: number;
  /** Records the package lists (any status). */
  listed: number;
  /** Ids the package brings that the tenant does not have. */
  created: number;
  /** Active rows the sync would delete or tombstone. */
  deleted: number;
  /** `deleted` as a percentage of `active`. */
  deleted_percent: number;
  /** The first ids (byte order) that would be deleted. */
  deleted_sample: string[];
}

export interface RosterSyncDiff {
  /** Threshold in force (percent of a type's active rows). */
  threshold_percent: number;
  /** Per object type (`users`, `enrollments`, ...). */
  types: Record<string, RosterSyncTypeDiff>;
  /** Types over the threshold: the reason the sync is held. */
  over_threshold: string[];
}

/** A problem found by a sync: a CSV file position, or the source URL and field it came from. */
export interface RosterSyncIssue {
  message: string;
  file?: string;
  line?: number;
  column?: string;
  url?: string;
  field?: string;
}

/** Per object type, what the import did. */
export interface RosterSyncTypeCounts {
  created: number;
  updated: number;
  deleted: number;
  unchanged: number;
}

/** One sync of a tenant's roster from a source, and its report. Statements: apps/oneroster/src/sources/roster-syncs.repository.ts. */
@Entity({ name: 'roster_syncs' })
@Index('IDX_roster_syncs_tenant', ['tenantId', 'createdAt', 'id'])
// One open (queued or running) sync per source: a second "sync now" is refused, a schedule skips.
@Index('UQ_roster_syncs_source_open', ['sourceId'], { unique: true, where: `status IN ('queued', 'running')` })
export class RosterSyncEntity {
  @PrimaryGeneratedColumn('uuid', { primaryKeyConstraintName: 'PK_roster_syncs' })
  id: string;

  @Column({ type: 'uuid', name: 'tenant_id' })
  tenantId: string;

  /** Null once the source is deleted (the report stays). */
  @Index('IDX_roster_syncs_source')
  @Column({ type: 'uuid', name: 'source_id', nullable: true })
  sourceId: string | null;

  @ManyToOne(() => RosterSourceEntity, { onDelete: 'SET NULL' })
  @JoinColumn({ name: 'source_id', foreignKeyConstraintName: 'FK_roster_syncs_source' })
  source?: RosterSourceEntity;

  @Column({ type: 'text', name: 'source_type' })
  sourceType: RosterSourceType;

  @Column({ type: 'text' })
  trigger: RosterSyncTrigger;

  /** What was asked for: null = the source decides (delta when it can). */
  @Column({ type: 'text', name: 'requested_mode', nullable: true })
  requestedMode: RosterSyncMode | null;

  /** What was read: a full read (bulk files) or the changes since the cursor (delta files). */
  @Column({ type: 'text', nullable: true })
  mode: RosterSyncMode | null;

  @Column({ type: 'text' })
  status: RosterSyncStatus;

  /** The package's name (SFTP) or the source URL read. */
  @Column({ type: 'text', nullable: true })
  origin: string | null;

  @CreateDateColumn({ type: 'timestamptz', name: 'created_at' })
  createdAt: Date;

  @Column({ type: 'timestamptz', name: 'started_at', nullable: true })
  startedAt: Date | null;

  @Column({ type: 'timestamptz', name: 'finished_at', nullable: true })
  finishedAt: Date | null;

  /** The roster import that applied it (roster_imports.id). */
  @Column({ type: 'uuid', name: 'import_id', nullable: true })
  importId: string | null;

  @Column({ type: 'bigint', name: 'data_version', nullable: true })
  dataVersion: string | null;

  /** Records read from the source or the package. */
  @Column({ type: 'integer', default: 0 })
  rows: number;

  @Column({ type: 'jsonb', nullable: true })
  diff: RosterSyncDiff | null;

  @Column({ type: 'jsonb', default: () => "'{}'" })
  counts: Record<string, RosterSyncTypeCounts>;

  @Column({ type: 'jsonb', default: () => "'[]'" })
  errors: RosterSyncIssue[];

  @Column({ type: 'jsonb', default: () => "'[]'" })
  warnings: RosterSyncIssue[];

  /** Where the source's next delta read starts once this sync is applied. */
  @Column({ type: 'text', name: 'next_cursor', nullable: true })
  nextCursor: string | null;

  /** Who approved or rejected a held sync (the token's client), and when. */
  @Column({ type: 'text', name: 'decided_by', nullable: true })
  decidedBy: string | null;

  @Column({ type: 'timestamptz', name: 'decided_at', nullable: true })
  decidedAt: Date | null;

  /** When the held notification reached the tenant's endpoint (null: none configured or not yet). */
  @Column({ type: 'timestamptz', name: 'notified_at', nullable: true })
  notifiedAt: Date | null;
}
