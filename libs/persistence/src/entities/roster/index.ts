export * from './roster-record';
export * from './roster-org.entity';
export * from './roster-academic-session.entity';
export * from './roster-course.entity';
export * from './roster-class.entity';
export * from './roster-user.entity';
export * from './roster-user-links.entity';
export * from './roster-enrollment.entity';
export * from './roster-demographic.entity';
export * from './roster-data-version.entity';
export * from './roster-import.entity';

import { RosterAcademicSessionEntity } from './roster-academic-session.entity';
import { RosterClassEntity } from './roster-class.entity';
import { RosterCourseEntity } from './roster-course.entity';
import { RosterDataVersionEntity } from './roster-data-version.entity';
import { RosterDemographicEntity } from './roster-demographic.entity';
import { RosterEnrollmentEntity } from './roster-enrollment.entity';
import { RosterImportEntity } from './roster-import.entity';
import { RosterOrgEntity } from './roster-org.entity';
import { RosterUserEntity } from './roster-user.entity';
import {
  RosterUserProfileRecordEntity,
  RosterUserResourceRecordEntity,
  RosterUserRoleRecordEntity,
} from './roster-user-links.entity';

export const ROSTER_ENTITIES = [
  RosterOrgEntity,
  RosterAcademicSessionEntity,
  RosterCourseEntity,
  RosterClassEntity,
  RosterUserEntity,
  RosterUserRoleRecordEntity,
  RosterUserProfileRecordEntity,
  RosterUserResourceRecordEntity,
  RosterEnrollmentEntity,
  RosterDemographicEntity,
  RosterDataVersionEntity,
  RosterImportEntity,
];
