import { Column, Entity, Index } from 'typeorm';
import { SourcedRecord } from '../sourced-record';

/*
 * The OneRoster v1.2 CSV files that attach score scales and learning objectives to imported line
 * items and results (reference oneroster-v1p2 §10): each row keeps its sourcedId and status so a
 * later delta can change or tombstone it. After each import the owner's `score_scale_sourced_id`
 * / `learning_objective_set` is rebuilt from the active rows; reads use only the owner's row.
 */

/** A `lineItemScoreScales.csv` record. */
@Entity({ name: 'gradebook_line_item_score_scales' })
@Index('IDX_gradebook_line_item_score_scales_owner', ['tenantId', 'lineItemSourcedId'])
export class GradebookLineItemScoreScaleRecordEntity extends SourcedRecord {
  @Column({ type: 'text', nullable: true })
  title: string | null;

  @Column({ type: 'text', name: 'line_item_sourced_id' })
  lineItemSourcedId: string;

  @Column({ type: 'text', name: 'score_scale_sourced_id' })
  scoreScaleSourcedId: string;
}

/** A `resultScoreScales.csv` record. */
@Entity({ name: 'gradebook_result_score_scales' })
@Index('IDX_gradebook_result_score_scales_owner', ['tenantId', 'resultSourcedId'])
export class GradebookResultScoreScaleRecordEntity extends SourcedRecord {
  @Column({ type: 'text', nullable: true })
  title: string | null;

  @Column({ type: 'text', name: 'result_sourced_id' })
  resultSourcedId: string;

  @Column({ type: 'text', name: 'score_scale_sourced_id' })
  scoreScaleSourcedId: string;
}

/** A `lineItemLearningObjectiveIds.csv` record. */
@Entity({ name: 'gradebook_line_item_learning_objectives' })
@Index('IDX_gradebook_line_item_learning_objectives_owner', ['tenantId', 'lineItemSourcedId'])
export class GradebookLineItemLearningObjectiveRecordEntity extends SourcedRecord {
  @Column({ type: 'text', name: 'line_item_sourced_id' })
  lineItemSourcedId: string;

  @Column({ type: 'text' })
  source: string;

  @Column({ type: 'text', name: 'learning_objective_id' })
  learningObjectiveId: string;
}

/** A `resultLearningObjectiveIds.csv` record. */
@Entity({ name: 'gradebook_result_learning_objectives' })
@Index('IDX_gradebook_result_learning_objectives_owner', ['tenantId', 'resultSourcedId'])
export class GradebookResultLearningObjectiveRecordEntity extends SourcedRecord {
  @Column({ type: 'text', name: 'result_sourced_id' })
  resultSourcedId: string;

  @Column({ type: 'text' })
  source: string;

  @Column({ type: 'text', name: 'learning_objective_id' })
  learningObjectiveId: string;

  @Column({ type: 'double precision', nullable: true })
  score: number | null;

  @Column({ type: 'text', name: 'text_score', nullable: true })
  textScore: string | null;
}
