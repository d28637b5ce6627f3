import { Column, Entity, Index } from 'typeorm';
import { ScoredResult } from './scored-result';

export type { ScoreStatusValue } from './scored-result';

/** OneRoster gradebook result (reference §3.11); its v1.2 fields are absent from v1.1 answers, and `class` is the line item's, never stored. */
@Entity({ name: 'gradebook_results' })
@Index('IDX_gradebook_results_line_item', ['tenantId', 'lineItemSourcedId'])
@Index('IDX_gradebook_results_student', ['tenantId', 'studentSourcedId'])
@Index('IDX_gradebook_results_modified', ['tenantId', 'dateLastModified'])
export class GradebookResultEntity extends ScoredResult {
  @Column({ type: 'text', name: 'line_item_sourced_id' })
  lineItemSourcedId: string;
}
