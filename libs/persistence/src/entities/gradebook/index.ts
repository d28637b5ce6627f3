export * from './gradebook-record';
export * from './gradebook-category.entity';
export * from './gradebook-line-item.entity';
export * from './gradebook-result.entity';
export * from './gradebook-score-scale.entity';
export * from './gradebook-assessment.entity';
export * from './gradebook-csv-links.entity';
export * from './gradebook-data-version.entity';

import { GradebookCategoryEntity } from './gradebook-category.entity';
import { GradebookDataVersionEntity } from './gradebook-data-version.entity';
import { GradebookLineItemEntity } from './gradebook-line-item.entity';
import { GradebookResultEntity } from './gradebook-result.entity';
import { GradebookScoreScaleEntity } from './gradebook-score-scale.entity';
import { GradebookAssessmentLineItemEntity, GradebookAssessmentResultEntity } from './gradebook-assessment.entity';
import {
  GradebookLineItemLearningObjectiveRecordEntity,
  GradebookLineItemScoreScaleRecordEntity,
  GradebookResultLearningObjectiveRecordEntity,
  GradebookResultScoreScaleRecordEntity,
} from './gradebook-csv-links.entity';

export const GRADEBOOK_ENTITIES = [
  GradebookCategoryEntity,
  GradebookLineItemEntity,
  GradebookResultEntity,
  GradebookScoreScaleEntity,
  GradebookAssessmentLineItemEntity,
  GradebookAssessmentResultEntity,
  GradebookLineItemScoreScaleRecordEntity,
  GradebookResultScoreScaleRecordEntity,
  GradebookLineItemLearningObjectiveRecordEntity,
  GradebookResultLearningObjectiveRecordEntity,
  GradebookDataVersionEntity,
];
