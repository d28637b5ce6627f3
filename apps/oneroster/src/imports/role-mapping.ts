/**
 * User role values between the two versions (app README, "OneRoster 1.2"): v1.1 has one
 * `administrator`, v1.2 five kinds of them and `ext:` roles. One store, two views: a v1.1 users
 * row gives the v1.2 `roles` (one `primary` role per org), v1.2 role records give the v1.1 `role`.
 */
import { V1P2_ROLE_TYPES, type RoleType, type V1p2RoleType } from '@edu/oneroster-query';
import { parseTextArrayLiteral } from './copy-in';

/** Org types whose administrators are district administrators in v1.2; any other (or unknown) org has site administrators. */
const DISTRICT_LEVEL: ReadonlySet<string> = new Set(['district', 'local', 'state', 'national']);

/** A v1.1 user role at an org of the given type (undefined when unknown) in the v1.2 vocabulary. */
export function v1p2RoleOf(role: string, orgType: string | undefined): string {
  if (role !== 'administrator') return role;
  return orgType !== undefined && DISTRICT_LEVEL.has(orgType) ? 'districtAdministrator' : 'siteAdministrator';
}

/** v1.2 roles v1.1 calls `administrator`; every other v1.2 role keeps its name. */
const ADMINISTRATORS: ReadonlySet<V1p2RoleType> = new Set([
  'districtAdministrator',
  'siteAdministrator',
  'systemAdministrator',
  'principal',
  'counselor',
]);

/** The v1.1 value of every v1.2 user role (`ext:` roles keep theirs). */
export const V1P1_ROLE_OF: Readonly<Record<V1p2RoleType, RoleType>> = Object.fromEntries(
  V1P2_ROLE_TYPES.map((r) => [r, ADMINISTRATORS.has(r) ? 'administrator' : (r as RoleType)]),
) as Record<V1p2RoleType, RoleType>;

/**
 * The stored v1.2 `roles` of a v1.1 users row: one `{roleType: primary, role, org}` per org, in
 * the row's order, `administrator` mapped by each org's type. JSON text (jsonb on COPY).
 */
export function v1p1RolesJson(
  role: string,
  orgs: readonly string[],
  orgType: (org: string) => string | undefined,
): string {
  let out = '[';
  for (let i = 0; i < orgs.length; i++) {
    const org = orgs[i]!;
    out += `${i > 0 ? ',' : ''}{"roleType":"primary","role":${JSON.stringify(v1p2RoleOf(role, orgType(org)))},"org":${JSON.stringify(org)}}`;
  }
  return `${out}]`;
}

/** Per import (its reference index): role list JSON by role and orgs literal; most users share a few. */
const rowRoles = new WeakMap<object, Map<string, string>>();
const MAX_CACHED = 10_000;

/**
 * `v1p1RolesJson` of a users row from its staged values (the role, the orgs as a text[] literal),
 * remembered per import: a school's users share a few role lists, and this runs for every row.
 */
export function v1p1RowRolesJson(
  role: string,
  orgsLiteral: string,
  refs: { extra(type: 'orgs', id: string): string | undefined },
): string {
  let cache = rowRoles.get(refs);
  if (!cache) rowRoles.set(refs, (cache = new Map()));
  // A role never contains a tab: the key is unambiguous.
  const key = `${role}\t${orgsLiteral}`;
  let json = cache.get(key);
  if (json === undefined) {
    json = v1p1RolesJson(role, parseTextArrayLiteral(orgsLiteral), (org) => refs.extra('orgs', org));
    if (cache.size < MAX_CACHED) cache.set(key, json);
  }
  return json;
}
