import { Column, Entity, Index } from 'typeorm';
import { ScoredResult } from './scored-result';

export type { ScoreStatusValue } from './scored-result';

/**
 * OneRoster gradebook result (reference §3.11); its v1.2 fields are absent from v1.1 answers.
 * `class` is the line item's: `class_sourced_id` keeps a copy for the class's reads, written by
 * triggers only (migration 1765500000000).
 */
@Entity({ name: 'gradebook_results' })
@Index('IDX_gradebook_results_line_item', ['tenantId', 'lineItemSourcedId'])
@Index('IDX_gradebook_results_student', ['tenantId', 'studentSourcedId'])
@Index('IDX_gradebook_results_modified', ['tenantId', 'dateLastModified'])
// (tenant_id, class_sourced_id, sourced_id) WITH (deduplicate_items = off): a class's results in page order.
@Index('IDX_gradebook_results_class', { synchronize: false })
export class GradebookResultEntity extends ScoredResult {
  @Column({ type: 'text', name: 'line_item_sourced_id' })
  lineItemSourcedId: string;

  /** The line item's class, set by the database; never written by the service. */
  @Column({ type: 'text', name: 'class_sourced_id', nullable: true, insert: false, update: false, select: false })
  classSourcedId?: string | null;
}
