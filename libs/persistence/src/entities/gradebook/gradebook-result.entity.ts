import { Column, Entity, Index } from 'typeorm';
import { GradebookRecord, type LearningObjectiveScoreSet } from './gradebook-record';

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

  // OneRoster v1.2 fields (absent from v1.1 answers). `class` is the line item's, never stored.
  @Column({ type: 'text', name: 'score_scale_sourced_id', nullable: true })
  scoreScaleSourcedId: string | null;

  @Column({ type: 'text', name: 'text_score', nullable: true })
  textScore: string | null;

  /** `[{source, learningObjectiveResults: [{learningObjectiveId, score?, textScore?}]}]` */
  @Column({ type: 'jsonb', name: 'learning_objective_set', nullable: true })
  learningObjectiveSet: LearningObjectiveScoreSet[] | null;

  @Column({ type: 'boolean', name: 'in_progress', nullable: true })
  inProgress: boolean | null;

  @Column({ type: 'boolean', nullable: true })
  incomplete: boolean | null;

  @Column({ type: 'boolean', nullable: true })
  late: boolean | null;

  @Column({ type: 'boolean', nullable: true })
  missing: boolean | null;
}
