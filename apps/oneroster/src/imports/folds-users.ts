/**
 * The folds of a v1.2 user's records (`roles.csv`, `userProfiles.csv`, `userResources.csv`) into
 * its row, and the v1.1 view of its roles (app README, "OneRoster 1.2"):
 *
 * - `roles`: the active role records, primary ones first, then by record sourcedId ("C" order);
 *   `userProfile` is the profile's URI (`profileUriSql`), dates `YYYY-MM-DD`;
 * - `role` (v1.1): the role of the primary role at the primary org, else of the first primary
 *   role, else of the first role, in the v1.1 vocabulary; `role_group` from it;
 * - `org_sourced_ids` (v1.1): every org of the roles, the primary org first, then in role order;
 * - `user_profiles`: one profile per active profile record (record sourcedId order), its one
 *   credential without the password;
 * - `resource_sourced_ids`: the resources of the active resource records, once each, in order.
 */
import { ROLE_TYPES } from '@edu/oneroster-query';
import { roleGroupOf } from '@edu/persistence/pg';
import type { RosterFileType } from './csv-layout';
import { affectedTable, lastLineSql, literal, type FoldCheck, type FoldSpec } from './fold-sql';
import { V1P1_ROLE_OF } from './role-mapping';

const USERS = 'roster_users';
const ROLES = 'roster_user_roles';
const PROFILES = 'roster_user_profiles';
const RESOURCES = 'roster_user_resources';

/** RFC 3986 `pchar`, and a `//host[:port]` authority without user info (a subset the OAS `uri` format accepts). */
const PCHAR = "(?:[A-Za-z0-9._~!$&'()*+,;=:@-]|%[0-9A-Fa-f]{2})";
const HOST = "(?:[A-Za-z0-9._~!$&'()*+,;=-]|%[0-9A-Fa-f]{2})+";
/** An absolute URI, kept as the profile id as it is. */
const ABSOLUTE_URI = `^[A-Za-z][A-Za-z0-9+.-]*:(?://${HOST}(?::[0-9]*)?(?:/${PCHAR}*)*|${PCHAR}+(?:/${PCHAR}*)*)(?:[?](?:${PCHAR}|[/?])*)?(?:#(?:${PCHAR}|[/?])*)?$`;
const PROFILE_URN_PREFIX = 'urn:oneroster:userprofile:';

/**
 * A user profile's URI (`profileId`, `Role.userProfile`) from its sourcedId: the sourcedId when it
 * is an absolute URI, else `urn:oneroster:userprofile:` + the sourcedId percent-encoded (UTF-8,
 * everything but RFC 3986 unreserved characters). NULL for NULL.
 */
export function profileUriSql(id: string): string {
  const encoded =
    `(SELECT string_agg(CASE WHEN ch.c ~ '^[A-Za-z0-9._~-]$' THEN ch.c ELSE upper(regexp_replace(encode(convert_to(ch.c, 'UTF8'), 'hex'), '(..)', '%\\1', 'g')) END, '' ORDER BY ch.n) ` +
    `FROM regexp_split_to_table(${id}, '') WITH ORDINALITY AS ch(c, n))`;
  return `(CASE WHEN ${id} ~ ${literal(ABSOLUTE_URI)} THEN ${id} ELSE ${literal(PROFILE_URN_PREFIX)} || ${encoded} END)`;
}

/** A v1.2 role in the v1.1 vocabulary (`ext:` roles keep their value). */
function v1p1RoleSql(role: string): string {
  const mapped = Object.entries(V1P1_ROLE_OF).filter(([v12, v11]) => v12 !== v11);
  return `(CASE ${role} ${mapped.map(([v12, v11]) => `WHEN ${literal(v12)} THEN ${literal(v11)}`).join(' ')} ELSE ${role} END)`;
}

/** The `/students` / `/teachers` partition of a v1.1 role; any other value (`ext:`) is in neither. */
function roleGroupSql(role: string): string {
  return `(CASE ${role} ${ROLE_TYPES.map((r) => `WHEN ${literal(r)} THEN ${literal(roleGroupOf(r))}`).join(' ')} ELSE 'other' END)`;
}

const active = (table: string) =>
  `FROM ${table} x WHERE x.tenant_id = $1 AND x.user_sourced_id = o.sourced_id AND x.status = 'active'`;

function rolesSelect(owners: string): string {
  const role =
    `jsonb_strip_nulls(jsonb_build_object('roleType', x.role_type, 'role', x.role, 'org', x.org_sourced_id, 'userProfile', ${profileUriSql('x.user_profile_sourced_id')}, ` +
    `'beginDate', to_char(x.begin_date, 'YYYY-MM-DD'), 'endDate', to_char(x.end_date, 'YYYY-MM-DD')))`;
  const elements = `jsonb_array_elements(r.roles) WITH ORDINALITY AS e(value, n)`;
  const atPrimaryOrg = `(SELECT e.value ->> 'role' FROM ${elements} WHERE e.value ->> 'roleType' = 'primary' AND e.value ->> 'org' = o.primary_org_sourced_id ORDER BY e.n LIMIT 1)`;
  const orgs = `ARRAY(SELECT g.org FROM (SELECT e.value ->> 'org' AS org, min(e.n) AS n FROM ${elements} GROUP BY 1) g ORDER BY (g.org IS DISTINCT FROM o.primary_org_sourced_id), g.n)`;
  return (
    `SELECT o.sourced_id AS owner, r.roles, v.role, ${roleGroupSql('v.role')} AS role_group, ${orgs} AS org_sourced_ids FROM ${owners} o ` +
    `CROSS JOIN LATERAL (SELECT coalesce(jsonb_agg(${role} ORDER BY (x.role_type <> 'primary'), x.sourced_id COLLATE "C"), '[]'::jsonb) AS roles ${active(ROLES)}) r ` +
    // Roles are listed primary first: the first role is the first primary role, if any.
    `CROSS JOIN LATERAL (SELECT ${v1p1RoleSql(`coalesce(${atPrimaryOrg}, r.roles -> 0 ->> 'role')`)} AS role) v`
  );
}

function profilesSelect(owners: string): string {
  const profile =
    `jsonb_strip_nulls(jsonb_build_object('profileId', ${profileUriSql('x.sourced_id')}, 'profileType', x.profile_type, 'vendorId', x.vendor_id, ` +
    `'applicationId', x.application_id, 'description', x.description, 'credentials', jsonb_build_array(jsonb_build_object('type', x.credential_type, 'username', x.username))))`;
  return `SELECT o.sourced_id AS owner, coalesce((SELECT jsonb_agg(${profile} ORDER BY x.sourced_id COLLATE "C") ${active(PROFILES)}), '[]'::jsonb) AS user_profiles FROM ${owners} o`;
}

function resourcesSelect(owners: string): string {
  return `SELECT o.sourced_id AS owner, ARRAY(SELECT x.resource_sourced_id ${active(RESOURCES)} GROUP BY 1 ORDER BY x.resource_sourced_id COLLATE "C") AS resource_sourced_ids FROM ${owners} o`;
}

const user = (
  name: string,
  records: RosterFileType,
  recordTable: string,
  columns: string[],
  select: (o: string) => string,
): FoldSpec => ({
  name,
  records,
  recordTable,
  ownerColumn: 'user_sourced_id',
  owner: 'users',
  ownerTable: USERS,
  columns,
  select,
  checks: [],
});

const ROLES_FOLD = user('user roles', 'roles', ROLES, ['roles', 'role', 'org_sourced_ids', 'role_group'], rolesSelect);
const affectedUsers = `u.tenant_id = $1 AND u.status = 'active' AND u.sourced_id IN (SELECT owner FROM "${affectedTable(ROLES_FOLD)}")`;
const hasRoles = (where = '') =>
  `EXISTS (SELECT 1 FROM ${ROLES} x WHERE x.tenant_id = $1 AND x.user_sourced_id = u.sourced_id AND x.status = 'active'${where})`;

const ROLE_CHECKS: readonly FoldCheck[] = [
  {
    file: 'roles.csv',
    column: 'roleType',
    sql:
      `SELECT coalesce(max(s._line), 0) AS line, x.user_sourced_id AS id, x.org_sourced_id AS detail FROM ${ROLES} x LEFT JOIN "stg_${ROLES}" s ON s.sourced_id = x.sourced_id AND NOT s._tombstone ` +
      `WHERE x.tenant_id = $1 AND x.status = 'active' AND x.role_type = 'primary' AND x.user_sourced_id IN (SELECT owner FROM "${affectedTable(ROLES_FOLD)}") ` +
      `GROUP BY x.user_sourced_id, x.org_sourced_id HAVING count(*) > 1 ORDER BY 1, 2`,
    message: (id, org) =>
      `user '${id}' has more than one active primary role at org '${org}' (one primary role per user and org)`,
  },
  {
    file: 'roles.csv',
    column: 'userSourcedId',
    sql: `SELECT ${lastLineSql(ROLES_FOLD, 'u.sourced_id')} AS line, u.sourced_id AS id, NULL AS detail FROM ${USERS} u WHERE ${affectedUsers} AND NOT ${hasRoles()} ORDER BY 1, 2`,
    message: (id) => `user '${id}' is left without an active role (every active user needs one)`,
  },
  {
    file: 'roles.csv',
    column: 'orgSourcedId',
    sql:
      `SELECT ${lastLineSql(ROLES_FOLD, 'u.sourced_id')} AS line, u.sourced_id AS id, u.primary_org_sourced_id AS detail FROM ${USERS} u ` +
      `WHERE ${affectedUsers} AND u.primary_org_sourced_id IS NOT NULL AND ${hasRoles()} AND NOT ${hasRoles(' AND x.org_sourced_id = u.primary_org_sourced_id')} ORDER BY 1, 2`,
    message: (id, org) =>
      `user '${id}' has no active role at its primary org '${org}' any more (its users.csv row names it)`,
  },
];

const STAGED_USER_CHECKS: readonly FoldCheck[] = [
  {
    file: 'users.csv',
    column: 'sourcedId',
    sql: `SELECT s._line AS line, s.sourced_id AS id, NULL AS detail FROM "stg_${USERS}" s WHERE NOT s._tombstone AND s.roles = '[]'::jsonb ORDER BY 1`,
    message: (id) =>
      `user '${id}' has no active role: every user needs at least one in roles.csv (or among the tenant's stored roles)`,
  },
  {
    file: 'users.csv',
    column: 'primaryOrgSourcedId',
    sql:
      `SELECT s._line AS line, s.sourced_id AS id, s.primary_org_sourced_id AS detail FROM "stg_${USERS}" s WHERE NOT s._tombstone AND s.roles <> '[]'::jsonb ` +
      `AND s.primary_org_sourced_id IS NOT NULL AND NOT (s.org_sourced_ids @> ARRAY[s.primary_org_sourced_id]) ORDER BY 1`,
    message: (id, org) => `'${org}' is not an org where user '${id}' has an active role`,
  },
];

export const USER_FOLDS: readonly FoldSpec[] = [
  // A user left without roles keeps its last ones: the checks refuse the import.
  { ...ROLES_FOLD, keepWhen: "f.roles = '[]'::jsonb", checks: ROLE_CHECKS, stagedChecks: STAGED_USER_CHECKS },
  user('user profiles', 'userProfiles', PROFILES, ['user_profiles'], profilesSelect),
  user('user resources', 'userResources', RESOURCES, ['resource_sourced_ids'], resourcesSelect),
];
