import { Column, Entity, Index, JoinColumn, ManyToOne, PrimaryColumn } from 'typeorm';
import { SharingScopeEntity } from './sharing-scope.entity';

/**
 * One object a sharing scope makes visible: its class (`user`, `class`, ...) and sourcedId, with
 * its `ord` (the row's import-maintained ordinal) so a page of a shared collection in default
 * order is an index range here plus one primary-key lookup per row.
 */
@Entity({ name: 'shared_objects' })
@Index('IDX_shared_objects_order', ['scopeId', 'object', 'ord'])
export class SharedObjectEntity {
  @PrimaryColumn({ type: 'bigint', name: 'scope_id', primaryKeyConstraintName: 'PK_shared_objects' })
  scopeId: string;

  @ManyToOne(() => SharingScopeEntity, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'scope_id', foreignKeyConstraintName: 'FK_shared_objects_scope' })
  scope?: SharingScopeEntity;

  @PrimaryColumn({ type: 'text', primaryKeyConstraintName: 'PK_shared_objects' })
  object: string;

  @PrimaryColumn({ type: 'text', name: 'sourced_id', primaryKeyConstraintName: 'PK_shared_objects' })
  sourcedId: string;

  @Column({ type: 'integer' })
  ord: number;
}
