import { Column, Entity, PrimaryColumn } from 'typeorm';

/**
 * A tenant's rostering data version: incremented inside every successful import's transaction,
 * so readers that see a version see exactly the data committed with it (cache and paging key).
 */
@Entity({ name: 'roster_data_versions' })
export class RosterDataVersionEntity {
  @PrimaryColumn({ type: 'uuid', name: 'tenant_id' })
  tenantId: string;

  /** bigint: read as a string. */
  @Column({ type: 'bigint' })
  version: string;

  @Column({ type: 'timestamptz', name: 'imported_at' })
  importedAt: Date;
}
