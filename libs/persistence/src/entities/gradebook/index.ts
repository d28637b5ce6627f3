export * from './gradebook-record';
export * from './gradebook-category.entity';
export * from './gradebook-line-item.entity';
export * from './gradebook-result.entity';

import { GradebookCategoryEntity } from './gradebook-category.entity';
import { GradebookLineItemEntity } from './gradebook-line-item.entity';
import { GradebookResultEntity } from './gradebook-result.entity';

export const GRADEBOOK_ENTITIES = [GradebookCategoryEntity, GradebookLineItemEntity, GradebookResultEntity];
