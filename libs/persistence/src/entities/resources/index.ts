export * from './roster-resource.entity';
export * from './roster-class-resource.entity';
export * from './roster-course-resource.entity';

import { RosterClassResourceEntity } from './roster-class-resource.entity';
import { RosterCourseResourceEntity } from './roster-course-resource.entity';
import { RosterResourceEntity } from './roster-resource.entity';

export const RESOURCE_ENTITIES = [RosterResourceEntity, RosterClassResourceEntity, RosterCourseResourceEntity];
