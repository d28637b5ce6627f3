import { Column, Entity, Index } from 'typeorm';
import { GradebookRecord, type LearningObjectiveSet } from './gradebook-record';

/**
 * OneRoster gradebook line item (reference §3.11). `category` and `gradingPeriod` may be absent:
 * grade-sync clients create line items without them.
 */
@Entity({ name: 'gradebook_line_items' })
@Index('IDX_gradebook_line_items_class', ['tenantId', 'classSourcedId'])
@Index('IDX_gradebook_line_items_modified', ['tenantId', 'dateLastModified'])
export class GradebookLineItemEntity extends GradebookRecord {
  @Column({ type: 'text' })
  title: string;

  @Column({ type: 'text', nullable: true })
  description: string | null;

  @Column({ type: 'timestamptz', name: 'assign_date' })
  assignDate: Date;

  @Column({ type: 'timestamptz', name: 'due_date' })
  dueDate: Date;

  @Column({ type: 'text', name: 'class_sourced_id' })
  classSourcedId: string;

  @Column({ type: 'text', name: 'category_sourced_id', nullable: true })
  categorySourcedId: string | null;

  @Column({ type: 'text', name: 'grading_period_sourced_id', nullable: true })
  gradingPeriodSourcedId: string | null;

  @Column({ type: 'double precision', name: 'result_value_min', nullable: true })
  resultValueMin: number | null;

  @Column({ type: 'double precision', name: 'result_value_max', nullable: true })
  resultValueMax: number | null;

  // OneRoster v1.2 fields (absent from v1.1 answers).
  /** v1.2 `school`; when absent (v1.1 writes) the class's school is served. */
  @Column({ type: 'text', name: 'school_sourced_id', nullable: true })
  schoolSourcedId: string | null;

  @Column({ type: 'text', name: 'academic_session_sourced_id', nullable: true })
  academicSessionSourcedId: string | null;

  @Column({ type: 'text', name: 'score_scale_sourced_id', nullable: true })
  scoreScaleSourcedId: string | null;

  /** `[{source, learningObjectiveIds[]}]` */
  @Column({ type: 'jsonb', name: 'learning_objective_set', nullable: true })
  learningObjectiveSet: LearningObjectiveSet[] | null;
}
