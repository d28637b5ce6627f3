import { Column } from 'typeorm';
import { SourcedRecord } from '../sourced-record';

/**
 * A gradebook object: imported from a CSV package (`owner_app_id` null) or written through the
 * OneRoster PUT by the app recorded in `owner_app_id`, the only app that may replace or delete it.
 * No foreign key to `apps` (app rows may be replicated into a regional database in any order).
 */
export abstract class GradebookRecord extends SourcedRecord {
  @Column({ type: 'uuid', name: 'owner_app_id', nullable: true })
  ownerAppId: string | null;
}

/** v1.2 `LearningObjectiveSetDType`: objectives a line item assesses, per source (`case`, `unknown`, ...). */
export interface LearningObjectiveSet {
  source: string;
  learningObjectiveIds: string[];
}

/** v1.2 `LearningObjectiveScoreSetDType`: a result's scores per objective. */
export interface LearningObjectiveScoreSet {
  source: string;
  learningObjectiveResults: { learningObjectiveId: string; score?: number; textScore?: string }[];
}
