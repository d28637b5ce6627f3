import { Column, Entity, Index, PrimaryGeneratedColumn } from 'typeorm';

/** `running` only for imports accepted by the operator endpoint and not finished yet. */
export type RosterImportStatus = 'running' | 'succeeded' | 'failed';
export type RosterImportMode = 'bulk' | 'delta' | 'mixed';

export interface RosterImportFileCounts {
  inserted: number;
  updated: number;
  unchanged: number;
  tombstoned: number;
}

export interface RosterImportIssue {
  file: string;
  line: number;
  column: string;
  message: string;
}

/** One CSV import attempt and its report (operator endpoint, CLI). */
@Entity({ name: 'roster_imports' })
export class RosterImportEntity {
  @PrimaryGeneratedColumn('uuid')
  id: string;

  @Index('IDX_roster_imports_tenant')
  @Column({ type: 'uuid', name: 'tenant_id' })
  tenantId: string;

  @Column({ type: 'text' })
  status: RosterImportStatus;

  /** Null until the manifest has been read. */
  @Column({ type: 'text', nullable: true })
  mode: RosterImportMode | null;

  /** Where the package came from: file name, `operator-upload`, `source.systemName`. */
  @Column({ type: 'text' })
  source: string;

  @Column({ type: 'timestamptz', name: 'started_at' })
  startedAt: Date;

  @Column({ type: 'timestamptz', name: 'finished_at', nullable: true })
  finishedAt: Date | null;

  /** While `running`: when the process running it last said it still is (failed when it goes quiet). */
  @Column({ type: 'timestamptz', name: 'heartbeat_at', nullable: true })
  heartbeatAt: Date | null;

  /** Per file name: inserted / updated / unchanged / tombstoned. */
  @Column({ type: 'jsonb', default: () => "'{}'" })
  counts: Record<string, RosterImportFileCounts>;

  @Column({ type: 'jsonb', default: () => "'[]'" })
  errors: RosterImportIssue[];

  /** Non-fatal findings (skipped gradebook files, absent files present, ...). */
  @Column({ type: 'jsonb', default: () => "'[]'" })
  warnings: RosterImportIssue[];

  /** The tenant's data version this import published (succeeded only). */
  @Column({ type: 'bigint', name: 'data_version', nullable: true })
  dataVersion: string | null;
}
