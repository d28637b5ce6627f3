import { Column, PrimaryColumn } from 'typeorm';
import type { RosterStatus } from './roster/roster-record';

/**
 * Columns shared by the OneRoster tables that are not rostering tables (resources, gradebook): a
 * tenant's object keyed by its sourcedId. Unlike `RosterRecord` there is no dense `ordinal`
 * (gradebook rows are written one by one through the API) and no foreign key to `tenants` (tenant
 * rows may reach a regional database after the data that names them). `sourced_id` is collated
 * "C", so the primary key is also the default order (sourcedId in byte order, whatever the
 * database's locale).
 */
export abstract class SourcedRecord {
  @PrimaryColumn({ type: 'uuid', name: 'tenant_id' })
  tenantId: string;

  @PrimaryColumn({ type: 'text', name: 'sourced_id', collation: 'C' })
  sourcedId: string;

  @Column({ type: 'text' })
  status: RosterStatus;

  @Column({ type: 'timestamptz', name: 'date_last_modified' })
  dateLastModified: Date;

  /** Extension data (`metadata.*` CSV columns, or the `metadata` object of a PUT). */
  @Column({ type: 'jsonb', nullable: true })
  metadata: Record<string, unknown> | null;
}
