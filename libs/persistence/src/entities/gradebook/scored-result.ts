import { Column } from 'typeorm';
import { GradebookRecord, type LearningObjectiveScoreSet } from './gradebook-record';

export type ScoreStatusValue = 'exempt' | 'fully graded' | 'not submitted' | 'partially graded' | 'submitted';

/**
 * What a result and an assessment result both record of a student's work: the score (a float8,
 * which holds every JSON number exactly, extra credit above `resultValueMax` included; absent only
 * for `exempt` and `not submitted`), its scale, objectives and the v1.2 flags.
 */
export abstract class ScoredResult extends GradebookRecord {
  @Column({ type: 'text', name: 'student_sourced_id' })
  studentSourcedId: string;

  /** One of `ScoreStatusValue`, or (v1.2) an extension value. */
  @Column({ type: 'text', name: 'score_status' })
  scoreStatus: ScoreStatusValue | string;

  @Column({ type: 'double precision', nullable: true })
  score: number | null;

  @Column({ type: 'text', name: 'text_score', nullable: true })
  textScore: string | null;

  @Column({ type: 'date', name: 'score_date' })
  scoreDate: string;

  @Column({ type: 'text', nullable: true })
  comment: string | null;

  @Column({ type: 'text', name: 'score_scale_sourced_id', nullable: true })
  scoreScaleSourcedId: string | null;

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
