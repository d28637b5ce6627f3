/**
 * The resources reads as data (reference §6.3), over `roster_resources` aliased `t`. Resources
 * are imported like rostering data, so, as there, tombstoned (`tobedeleted`) resources stay
 * readable. A class's or course's resources are those named by its `active` link records
 * (`classResources.csv`, `courseResources.csv`); an unknown class or course has none (200, empty).
 */
import { CLASS_RESOURCES, COURSE_RESOURCES, quoteIdent, type LinkTable } from '../query/roster-tables';
import { ALL, pathId, text, type BaseSetInput, type CollectionOperation, type SingleOperation } from '../roster/roster-operations';

function linkedTo(link: LinkTable, input: BaseSetInput, param: string): string {
  const owner = text(input, pathId(input, param));
  return `t.sourced_id IN (SELECT l.${quoteIdent(link.target)} FROM ${quoteIdent(link.table)} AS l WHERE l.tenant_id = $1::uuid AND l.${quoteIdent(link.owner)} = ${owner} AND l.status = 'active')`;
}

export const RESOURCE_COLLECTIONS = {
  getAllResources: { name: 'getAllResources', resource: 'resource', base: () => ALL },
  getResourcesForClass: { name: 'getResourcesForClass', resource: 'resource', base: (i) => ({ conditions: [linkedTo(CLASS_RESOURCES, i, 'class_id')] }) },
  getResourcesForCourse: { name: 'getResourcesForCourse', resource: 'resource', base: (i) => ({ conditions: [linkedTo(COURSE_RESOURCES, i, 'course_id')] }) },
} as const satisfies Record<string, CollectionOperation>;

export const RESOURCE_SINGLES = {
  getResource: { name: 'getResource', resource: 'resource', noun: 'resource', base: () => ALL },
} as const satisfies Record<string, SingleOperation>;
