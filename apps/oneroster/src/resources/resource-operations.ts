/**
 * The resources reads as data (reference §6.3), over `roster_resources` aliased `t`. Resources
 * are imported like rostering data, so, as there, tombstoned (`tobedeleted`) resources stay
 * readable. A class's or course's resources are those named by its `active` link records
 * (`classResources.csv`, `courseResources.csv`); an unknown class or course has none (200, empty
 * in v1.1; 404 in v1.2). A user's (v1.2 only) are those of its `resources` (`userResources.csv`).
 */
import { CLASS_RESOURCES, COURSE_RESOURCES, quoteIdent, type LinkTable } from '../query/roster-tables';
import {
  ALL,
  pathId,
  SINGLES,
  text,
  type BaseSetInput,
  type CollectionOperation,
  type SingleOperation,
} from '../roster/roster-operations';

function linkedTo(link: LinkTable, input: BaseSetInput, param: string): string {
  const owner = text(input, pathId(input, param));
  return `t.sourced_id IN (SELECT l.${quoteIdent(link.target)} FROM ${quoteIdent(link.table)} AS l WHERE l.tenant_id = $1::uuid AND l.${quoteIdent(link.owner)} = ${owner} AND l.status = 'active')`;
}

export const RESOURCE_COLLECTIONS = {
  getAllResources: { name: 'getAllResources', resource: 'resource', base: () => ALL },
  getResourcesForClass: {
    name: 'getResourcesForClass',
    parents: { class_id: SINGLES.getClass },
    resource: 'resource',
    base: (i) => ({ conditions: [linkedTo(CLASS_RESOURCES, i, 'class_id')] }),
  },
  getResourcesForCourse: {
    name: 'getResourcesForCourse',
    parents: { course_id: SINGLES.getCourse },
    resource: 'resource',
    base: (i) => ({ conditions: [linkedTo(COURSE_RESOURCES, i, 'course_id')] }),
  },
  /** v1.2 only: the resources made available to the user (`User.resources`). */
  getResourcesForUser: {
    name: 'getResourcesForUser',
    parents: { user_id: SINGLES.getUser },
    resource: 'resource',
    base: (i) => ({
      conditions: [
        `t.sourced_id = ANY (ARRAY(SELECT unnest(u.resource_sourced_ids) COLLATE "C" FROM roster_users AS u WHERE u.tenant_id = $1::uuid AND u.sourced_id = ${text(i, pathId(i, 'user_id'))}))`,
      ],
    }),
  },
} as const satisfies Record<string, CollectionOperation>;

export const RESOURCE_SINGLES = {
  getResource: { name: 'getResource', resource: 'resource', noun: 'resource', base: () => ALL },
} as const satisfies Record<string, SingleOperation>;
