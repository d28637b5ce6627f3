/**
 * What an app may read of each OneRoster class under a sharing scope, as one condition over the
 * row alias (every read of the rostering API and every preview count uses exactly this). Roster
 * classes are listed in the scope; gradebook objects follow the classes and people they belong to;
 * categories carry no personal data and are all visible.
 */
import { sharedIds, type ScopedObject } from './closure-sql';

const LISTED: ReadonlySet<string> = new Set<ScopedObject>([
  'org',
  'academicSession',
  'course',
  'class',
  'enrollment',
  'user',
  'demographics',
  'resource',
]);

/**
 * How a read checks a listed row: `join` lets the planner start from the scope's list (a whole
 * collection, of which a deployment may see a small part); `probe` checks each candidate row
 * with one primary-key lookup in the list (a relationship read: the members of one class are a
 * few rows, and starting from a list of thousands would cost far more). `OFFSET 0` keeps
 * PostgreSQL from turning the probe back into a join.
 */
export type VisibilityCheck = 'join' | 'probe';

/**
 * The condition (over `alias`, whose `tenant_id` is the tenant's) that keeps the rows of
 * `resource` the scope `scope` (a bound placeholder) makes visible; undefined = every row.
 */
export function visibleCondition(
  resource: string,
  scope: string,
  alias = 't',
  check: VisibilityCheck = 'join',
): string | undefined {
  const a = alias;
  const ids = (object: ScopedObject) => sharedIds(object, scope);
  if (LISTED.has(resource)) {
    return check === 'join'
      ? `${a}.sourced_id IN ${ids(resource as ScopedObject)}`
      : `EXISTS (SELECT 1 FROM shared_objects AS s WHERE s.scope_id = ${scope} AND s.object = '${resource}' AND s.sourced_id = ${a}.sourced_id OFFSET 0)`;
  }
  switch (resource) {
    case 'lineItem':
      return `${a}.class_sourced_id IN ${ids('class')}`;
    case 'result':
      return `${a}.student_sourced_id IN ${ids('user')} AND EXISTS (SELECT 1 FROM gradebook_line_items AS vli WHERE vli.tenant_id = ${a}.tenant_id AND vli.sourced_id = ${a}.line_item_sourced_id AND vli.class_sourced_id IN ${ids('class')})`;
    case 'scoreScale':
      // A scale belongs to the most specific of its class, course or org.
      return `(CASE WHEN ${a}.class_sourced_id IS NOT NULL THEN ${a}.class_sourced_id IN ${ids('class')} WHEN ${a}.course_sourced_id IS NOT NULL THEN ${a}.course_sourced_id IN ${ids('course')} ELSE true END)`;
    case 'assessmentLineItem':
      return `(${a}.class_sourced_id IS NULL OR ${a}.class_sourced_id IN ${ids('class')})`;
    case 'assessmentResult':
      return `${a}.student_sourced_id IN ${ids('user')} AND EXISTS (SELECT 1 FROM gradebook_assessment_line_items AS vai WHERE vai.tenant_id = ${a}.tenant_id AND vai.sourced_id = ${a}.assessment_line_item_sourced_id AND (vai.class_sourced_id IS NULL OR vai.class_sourced_id IN ${ids('class')}))`;
    default:
      return undefined;
  }
}

/** The class a scope lists rows of for `resource` (its shared_objects.object), if any. */
export function listedObject(resource: string): ScopedObject | undefined {
  return LISTED.has(resource) ? (resource as ScopedObject) : undefined;
}
