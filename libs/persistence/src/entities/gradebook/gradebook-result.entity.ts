import { Column, Entity, Index } from 'typeorm';
import { GradebookRecord } from './gradebook-record';

export type ScoreStatusValue = 'exempt' | 'fully graded' | 'not submitted' | 'partially graded' | 'submitted';

/**
 * OneRoster gradebook result (reference §3.11). `score` is a float8, which holds every JSON
 * number exactly (extra credit above `resultValueMax` included); absent only for `exempt` and
 * `not submitted` results.
 */
@Entity({ name: 'gradebook_results' })
@Index('IDX_gradebook_results_line_item', ['tenantId', 'lineItemSourcedId'])
@Index('IDX_gradebook_results_student', ['tenantId', 'studentSourcedId'])
@Index('IDX_gradebook_results_modified', ['tenantId', 'dateLastModified'])
export class GradebookResultEntity extends GradebookRecord {
  @Column({ type: 'text', name: 'line_item_sourced_id' })
  lineItemSourcedId: string;

  @Column({ type: 'text', name: 'student_sourced_id' })
  studentSourcedId: string;

  @Column({ type: 'text', name: 'score_status' })
  scoreStatus: ScoreStatusValue;

  @Column({ type: 'double precision', nullable: true })
  score: number | null;

  @Column({ type: 'date', name: 'score_date' })
  scoreDate: string;

  @Column({ type: 'text', nullable: true })
  comment: string | null;
}
