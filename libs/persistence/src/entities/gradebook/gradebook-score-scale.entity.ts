import { Column, Entity, Index } from 'typeorm';
import { GradebookRecord } from './gradebook-record';

/** v1.2 `ScoreScaleValueDType`: a value (or `x - y` range) and its equivalent on the other scale. */
export interface ScoreScaleValue {
  itemValueLHS: string;
  itemValueRHS: string;
}

/** OneRoster v1.2 score scale (reference oneroster-v1p2 §4.4): served by the v1.2 gradebook only. */
@Entity({ name: 'gradebook_score_scales' })
@Index('IDX_gradebook_score_scales_class', ['tenantId', 'classSourcedId'])
@Index('IDX_gradebook_score_scales_org', ['tenantId', 'orgSourcedId'])
@Index('IDX_gradebook_score_scales_modified', ['tenantId', 'dateLastModified'])
export class GradebookScoreScaleEntity extends GradebookRecord {
  @Column({ type: 'text' })
  title: string;

  @Column({ type: 'text' })
  type: string;

  /** The school the scale belongs to (`getScoreScalesForSchool`): `scoreScales.csv` orgSourcedId, else the class's school. */
  @Column({ type: 'text', name: 'org_sourced_id', nullable: true })
  orgSourcedId: string | null;

  @Column({ type: 'text', name: 'course_sourced_id', nullable: true })
  courseSourcedId: string | null;

  @Column({ type: 'text', name: 'class_sourced_id', nullable: true })
  classSourcedId: string | null;

  /** At least one value. */
  @Column({ type: 'jsonb', name: 'score_scale_value' })
  scoreScaleValue: ScoreScaleValue[];
}
