import { Column, PrimaryColumn } from 'typeorm';

/** Record lifecycle of every OneRoster object (v1.0's `inactive` is imported as `tobedeleted`). */
export type RosterStatus = 'active' | 'tobedeleted';

/**
 * Columns shared by every rostering table. Rostering data changes only through CSV imports, which
 * keep `ordinal` dense (0..n-1 per tenant) in `sourced_id` byte order (COLLATE "C"), so the
 * default order's page at offset N is an index range scan on (tenant_id, ordinal), not a skip.
 * The unique constraints on ordinals are DEFERRABLE INITIALLY DEFERRED: an import renumbers rows
 * in place and the constraint is checked at commit. No foreign key to `tenants`: in a regional
 * database that table is a logical-replication copy, whose deletes must not fail or cascade on
 * regional data; rows of a deleted tenant are removed by `npm run db:cleanup-orphans`.
 */
export abstract class RosterRecord {
  @PrimaryColumn({ type: 'uuid', name: 'tenant_id' })
  tenantId: string;

  @PrimaryColumn({ type: 'text', name: 'sourced_id' })
  sourcedId: string;

  @Column({ type: 'text' })
  status: RosterStatus;

  @Column({ type: 'timestamptz', name: 'date_last_modified' })
  dateLastModified: Date;

  /** Extension data (`metadata.*` CSV columns). */
  @Column({ type: 'jsonb', nullable: true })
  metadata: Record<string, string> | null;

  /** Position in the default order (sourcedId ascending, byte order), dense per tenant. */
  @Column({ type: 'integer' })
  ordinal: number;
}
