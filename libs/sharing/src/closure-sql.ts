/**
 * The closure of a sharing spec (what a school shares when it shares a school, a class or a rule),
 * written once as SQL: the statements that list, for one visibility scope, every object the spec
 * makes visible in the tenant's roster. `README.md` of this library states the rules in prose.
 *
 * Every statement binds `$1` = scope id and `$2` = tenant id, and runs in one REPEATABLE READ
 * transaction, so all of them see the same roster data version.
 */
import { rulesSql } from './rule-sql';
import type { SharingSpec } from './sharing-spec';
import { SqlValues } from './sql-values';

export interface Statement {
  readonly text: string;
  readonly values: unknown[];
}

/** The objects of a scope, as the shared_objects.object column names them (OneRoster class names). */
export const SCOPED_OBJECTS = [
  'class',
  'enrollment',
  'user',
  'course',
  'academicSession',
  'org',
  'demographics',
  'resource',
] as const;
export type ScopedObject = (typeof SCOPED_OBJECTS)[number];

/** sourcedIds of the scope's objects of one class (`$1` = scope id). */
export const sharedIds = (object: ScopedObject, scope = '$1::bigint') =>
  `(SELECT s.sourced_id FROM shared_objects AS s WHERE s.scope_id = ${scope} AND s.object = '${object}')`;

/**
 * Rows are listed in their objects' order, so a page of a scope's list (an index range on `ord`)
 * finds its rows side by side in a few heap pages instead of one page per row.
 */
const inOrder = (alias: string) => ` ORDER BY ${alias}.ordinal`;

const insert = (object: ScopedObject, alias: string) =>
  `INSERT INTO shared_objects (scope_id, object, sourced_id, ord) SELECT $1::bigint, '${object}', ${alias}.sourced_id, ${alias === 'r' ? '0' : `${alias}.ordinal`}`;

/** The tenant's visible org tree (root and everything below it; every org without a root). */
export const orgTreeCte = (tenant = '$2::uuid') => `tree(id) AS (
  SELECT o.sourced_id FROM roster_orgs AS o JOIN tenants AS tn ON tn.id = ${tenant}
   WHERE o.tenant_id = ${tenant} AND (tn.root_org_sourced_id IS NULL OR o.sourced_id = tn.root_org_sourced_id)
  UNION
  SELECT c.sourced_id FROM roster_orgs AS c JOIN tree ON c.parent_sourced_id = tree.id WHERE c.tenant_id = ${tenant})`;

/** Schools named by the spec that exist as schools in the tenant's tree (`$1`: tenant, `$2`: the named ids). */
export const SHARED_SCHOOLS_SQL = `WITH RECURSIVE ${orgTreeCte('$1::uuid')}
  SELECT o.sourced_id FROM roster_orgs AS o
   WHERE o.tenant_id = $1::uuid AND o.type = 'school' AND o.sourced_id = ANY($2::text[]) AND o.sourced_id IN (SELECT id FROM tree)`;

function classesStatement(spec: SharingSpec, schools: readonly string[]): Statement {
  const p = new SqlValues(['', '']);
  let where: string;
  if (spec.mode === 'schools') where = `k.school_sourced_id = ANY(${p.bind(schools, 'text[]')})`;
  else if (spec.mode === 'classes') where = `k.sourced_id = ANY(${p.bind(spec.classes, 'text[]')})`;
  else {
    const classRules = rulesSql(spec.rules, 'class', 'k', p);
    where =
      classRules ??
      `EXISTS (SELECT 1 FROM roster_enrollments AS e JOIN roster_users AS u ON u.tenant_id = e.tenant_id AND u.sourced_id = e.user_sourced_id
                WHERE e.tenant_id = $2::uuid AND e.class_sourced_id = k.sourced_id AND ${rulesSql(spec.rules, 'user', 'u', p) ?? 'true'})`;
  }
  return {
    text: `${insert('class', 'k')} FROM roster_classes AS k WHERE k.tenant_id = $2::uuid AND ${where}${inOrder('k')}`,
    values: p.list,
  };
}

function enrollmentsStatement(spec: SharingSpec): Statement {
  const p = new SqlValues(['', '']);
  const userRules = spec.mode === 'rules' ? rulesSql(spec.rules, 'user', 'u', p) : undefined;
  const ofUsers = userRules
    ? ` AND EXISTS (SELECT 1 FROM roster_users AS u WHERE u.tenant_id = $2::uuid AND u.sourced_id = e.user_sourced_id AND ${userRules})`
    : '';
  return {
    text: `${insert('enrollment', 'e')} FROM roster_enrollments AS e WHERE e.tenant_id = $2::uuid AND e.class_sourced_id IN ${sharedIds('class')}${ofUsers}${inOrder('e')}`,
    values: p.list,
  };
}

function usersStatement(spec: SharingSpec, schools: readonly string[]): Statement {
  const p = new SqlValues(['', '']);
  const enrolled = `u.sourced_id IN (SELECT e.user_sourced_id FROM roster_enrollments AS e WHERE e.tenant_id = $2::uuid AND e.sourced_id IN ${sharedIds('enrollment')})`;
  const also: string[] = [];
  // A shared school shares its own staff and students, enrolled in a class or not.
  if (spec.mode === 'schools') also.push(`u.org_sourced_ids && ${p.bind(schools, 'text[]')}`);
  // User rules alone select users directly, enrolled or not.
  if (spec.mode === 'rules' && !spec.rules.some((r) => r.object === 'class'))
    also.push(rulesSql(spec.rules, 'user', 'u', p) ?? 'false');
  return {
    text: `${insert('user', 'u')} FROM roster_users AS u WHERE u.tenant_id = $2::uuid AND (${[enrolled, ...also].join(' OR ')})${inOrder('u')}`,
    values: p.list,
  };
}

function coursesStatement(spec: SharingSpec, schools: readonly string[]): Statement {
  const p = new SqlValues(['', '']);
  const ofSchools = spec.mode === 'schools' ? ` OR c.org_sourced_id = ANY(${p.bind(schools, 'text[]')})` : '';
  return {
    text: `${insert('course', 'c')} FROM roster_courses AS c WHERE c.tenant_id = $2::uuid AND (c.sourced_id IN (SELECT k.course_sourced_id FROM roster_classes AS k WHERE k.tenant_id = $2::uuid AND k.sourced_id IN ${sharedIds('class')})${ofSchools})${inOrder('c')}`,
    values: p.list,
  };
}

/** The terms of shared classes with their ancestors and descendants; the school years of shared courses with their ancestors. */
const SESSIONS_SQL = `WITH RECURSIVE
  terms(id) AS (SELECT DISTINCT unnest(k.term_sourced_ids) FROM roster_classes AS k WHERE k.tenant_id = $2::uuid AND k.sourced_id IN ${sharedIds('class')}),
  seeds(id) AS (SELECT id FROM terms UNION SELECT c.school_year_sourced_id FROM roster_courses AS c WHERE c.tenant_id = $2::uuid AND c.sourced_id IN ${sharedIds('course')} AND c.school_year_sourced_id IS NOT NULL),
  up(id) AS (SELECT id FROM seeds UNION SELECT a.parent_sourced_id FROM roster_academic_sessions AS a JOIN up ON a.sourced_id = up.id WHERE a.tenant_id = $2::uuid AND a.parent_sourced_id IS NOT NULL),
  down(id) AS (SELECT id FROM terms UNION SELECT a.sourced_id FROM roster_academic_sessions AS a JOIN down ON a.parent_sourced_id = down.id WHERE a.tenant_id = $2::uuid)
  ${insert('academicSession', 'a')} FROM roster_academic_sessions AS a WHERE a.tenant_id = $2::uuid AND (a.sourced_id IN (SELECT id FROM up) OR a.sourced_id IN (SELECT id FROM down))${inOrder('a')}`;

/** Shared schools, the schools of shared classes and the orgs of shared courses, with the orgs above them, inside the tenant's tree. */
const ORGS_SQL = `WITH RECURSIVE ${orgTreeCte()},
  seeds(id) AS (SELECT unnest($3::text[]) UNION SELECT k.school_sourced_id FROM roster_classes AS k WHERE k.tenant_id = $2::uuid AND k.sourced_id IN ${sharedIds('class')}
                UNION SELECT c.org_sourced_id FROM roster_courses AS c WHERE c.tenant_id = $2::uuid AND c.sourced_id IN ${sharedIds('course')}),
  up(id) AS (SELECT id FROM seeds UNION SELECT o.parent_sourced_id FROM roster_orgs AS o JOIN up ON o.sourced_id = up.id WHERE o.tenant_id = $2::uuid AND o.parent_sourced_id IS NOT NULL)
  ${insert('org', 'o')} FROM roster_orgs AS o WHERE o.tenant_id = $2::uuid AND o.sourced_id IN (SELECT id FROM up) AND o.sourced_id IN (SELECT id FROM tree)${inOrder('o')}`;

const DEMOGRAPHICS_SQL = `${insert('demographics', 'd')} FROM roster_demographics AS d WHERE d.tenant_id = $2::uuid AND d.sourced_id IN ${sharedIds('user')}${inOrder('d')}`;

/** Resources linked to a shared class, course or user. */
const RESOURCES_SQL = `${insert('resource', 'r')} FROM roster_resources AS r WHERE r.tenant_id = $2::uuid AND (
  EXISTS (SELECT 1 FROM roster_class_resources AS l WHERE l.tenant_id = $2::uuid AND l.resource_sourced_id = r.sourced_id AND l.class_sourced_id IN ${sharedIds('class')})
  OR EXISTS (SELECT 1 FROM roster_course_resources AS l WHERE l.tenant_id = $2::uuid AND l.resource_sourced_id = r.sourced_id AND l.course_sourced_id IN ${sharedIds('course')})
  OR EXISTS (SELECT 1 FROM roster_user_resources AS l WHERE l.tenant_id = $2::uuid AND l.resource_sourced_id = r.sourced_id AND l.user_sourced_id IN ${sharedIds('user')})
  OR r.sourced_id IN (SELECT unnest(u.resource_sourced_ids) FROM roster_users AS u WHERE u.tenant_id = $2::uuid AND u.sourced_id IN ${sharedIds('user')}))`;

/**
 * A scope listing at most this many users keeps its own copy of their rows (`shared_user_rows`):
 * a page of them is then one index range instead of a primary-key lookup per row, which for the
 * users of a few classes scattered over a district's table costs a heap page per row. Above it
 * (a whole school or district shared) the scope's pages read the table by key; the copy would
 * cost more to write, once per roster data version, than it saves.
 */
export const MAX_COPIED_USERS = 50_000;

/** The scope's users copied in its list's order, `pos` 0..n-1 (`$3`: MAX_COPIED_USERS). */
const COPIED_USERS_SQL = `INSERT INTO shared_user_rows
  SELECT $1::bigint, (row_number() OVER (ORDER BY s.ord) - 1)::integer, u.*
    FROM shared_objects AS s JOIN roster_users AS u ON u.tenant_id = $2::uuid AND u.sourced_id = s.sourced_id
   WHERE s.scope_id = $1::bigint AND s.object = 'user'
     AND (SELECT count(*) FROM shared_objects AS c WHERE c.scope_id = $1::bigint AND c.object = 'user') <= $3::bigint
   ORDER BY s.ord`;

/**
 * The statements that fill a scope, in order (each builds on the objects listed before it).
 * `schools` are the spec's schools that exist in the tenant's tree (`SHARED_SCHOOLS_SQL`).
 * The values of each statement start with two placeholders for `$1` and `$2`, which the caller fills.
 */
export function closureStatements(spec: SharingSpec, schools: readonly string[]): Statement[] {
  return [
    classesStatement(spec, schools),
    enrollmentsStatement(spec),
    usersStatement(spec, schools),
    coursesStatement(spec, schools),
    { text: SESSIONS_SQL, values: ['', ''] },
    { text: ORGS_SQL, values: ['', '', spec.mode === 'schools' ? [...schools] : []] },
    { text: DEMOGRAPHICS_SQL, values: ['', ''] },
    { text: RESOURCES_SQL, values: ['', ''] },
    { text: COPIED_USERS_SQL, values: ['', '', MAX_COPIED_USERS] },
  ];
}
