import { Column, Entity, Index, JoinColumn, ManyToOne, PrimaryColumn } from 'typeorm';
import { RosterSyncEntity } from './roster-sync.entity';

/**
 * The files of a held sync, kept until it is approved or rejected: approval imports exactly what
 * was diffed, on whichever worker replica takes the job. Gzipped, in parts of a few MiB.
 */
@Entity({ name: 'roster_sync_packages' })
export class RosterSyncPackageEntity {
  @PrimaryColumn({ type: 'uuid', name: 'sync_id', primaryKeyConstraintName: 'PK_roster_sync_packages' })
  syncId: string;

  @ManyToOne(() => RosterSyncEntity, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'sync_id', foreignKeyConstraintName: 'FK_roster_sync_packages_sync' })
  sync?: RosterSyncEntity;

  @PrimaryColumn({ type: 'text', name: 'file_name', primaryKeyConstraintName: 'PK_roster_sync_packages' })
  fileName: string;

  @PrimaryColumn({ type: 'integer', primaryKeyConstraintName: 'PK_roster_sync_packages' })
  part: number;

  @Index('IDX_roster_sync_packages_tenant')
  @Column({ type: 'uuid', name: 'tenant_id' })
  tenantId: string;

  @Column({ type: 'bytea' })
  data: Buffer;
}
