import { Column, Entity, PrimaryColumn } from 'typeorm';

/**
 * A tenant's gradebook data version: incremented inside every gradebook write's transaction
 * (PUT, DELETE, bulk POST), so a read keyed by it never answers from before the write.
 */
@Entity({ name: 'gradebook_data_versions' })
export class GradebookDataVersionEntity {
  @PrimaryColumn({ type: 'uuid', name: 'tenant_id', primaryKeyConstraintName: 'PK_gradebook_data_versions' })
  tenantId: string;

  /** bigint: read as a string. */
  @Column({ type: 'bigint' })
  version: string;
}
