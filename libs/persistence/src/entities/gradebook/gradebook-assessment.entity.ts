import { Column, Entity, Index } from 'typeorm';
import { GradebookRecord, type LearningObjectiveSet } from './gradebook-record';
import { ScoredResult } from './scored-result';

/** OneRoster v1.2 assessment line item (reference oneroster-v1p2 §4.4): served by the v1.2 gradebook only. */
@Entity({ name: 'gradebook_assessment_line_items' })
@Index('IDX_gradebook_assessment_line_items_modified', ['tenantId', 'dateLastModified'])
export class GradebookAssessmentLineItemEntity extends GradebookRecord {
  @Column({ type: 'text' })
  title: string;

  @Column({ type: 'text', nullable: true })
  description: string | null;

  @Column({ type: 'text', name: 'class_sourced_id', nullable: true })
  classSourcedId: string | null;

  @Column({ type: 'text', name: 'parent_sourced_id', nullable: true })
  parentSourcedId: string | null;

  @Column({ type: 'text', name: 'score_scale_sourced_id', nullable: true })
  scoreScaleSourcedId: string | null;

  @Column({ type: 'double precision', name: 'result_value_min', nullable: true })
  resultValueMin: number | null;

  @Column({ type: 'double precision', name: 'result_value_max', nullable: true })
  resultValueMax: number | null;

  @Column({ type: 'jsonb', name: 'learning_objective_set', nullable: true })
  learningObjectiveSet: LearningObjectiveSet[] | null;
}

/** OneRoster v1.2 assessment result (reference oneroster-v1p2 §4.4): served by the v1.2 gradebook only. */
@Entity({ name: 'gradebook_assessment_results' })
@Index('IDX_gradebook_assessment_results_line_item', ['tenantId', 'assessmentLineItemSourcedId'])
@Index('IDX_gradebook_assessment_results_modified', ['tenantId', 'dateLastModified'])
export class GradebookAssessmentResultEntity extends ScoredResult {
  @Column({ type: 'text', name: 'assessment_line_item_sourced_id' })
  assessmentLineItemSourcedId: string;

  @Column({ type: 'double precision', name: 'score_percentile', nullable: true })
  scorePercentile: number | null;
}
