/**
 * User role values between the two versions (app README, "OneRoster 1.2"): v1.1 has one
 * `administrator`, v1.2 five kinds of them and `ext:` roles. One store, two views: a v1.1 users
 * row gives the v1.2 `roles` (one `primary` role per org), v1.2 role records give the v1.1 `role`.
 */
import { ROLE_TYPES, V1P2_ROLE_TYPES, type RoleType, type V1p2RoleType } from '@edu/oneroster-query';
import { roleGroupOf, type RosterRole, type RosterRoleGroup } from '@edu/persistence';

/** Org types whose administrators are district administrators in v1.2; any other (or unknown) org has site administrators. */
const DISTRICT_LEVEL: ReadonlySet<string> = new Set(['district', 'local', 'state', 'national']);

/** A v1.1 user role at an org of the given type (undefined when unknown) in the v1.2 vocabulary. */
export function v1p2RoleOf(role: string, orgType: string | undefined): string {
  if (role !== 'administrator') return role;
  return orgType !== undefined && DISTRICT_LEVEL.has(orgType) ? 'districtAdministrator' : 'siteAdministrator';
}

/** v1.2 roles v1.1 calls `administrator`; every other v1.2 role keeps its name. */
const ADMINISTRATORS: ReadonlySet<V1p2RoleType> = new Set(['districtAdministrator', 'siteAdministrator', 'systemAdministrator', 'principal', 'counselor']);

/** The v1.1 value of every v1.2 user role (`ext:` roles keep theirs). */
export const V1P1_ROLE_OF: Readonly<Record<V1p2RoleType, RoleType>> = Object.fromEntries(
  V1P2_ROLE_TYPES.map((r) => [r, ADMINISTRATORS.has(r) ? 'administrator' : (r as RoleType)]),
) as Record<V1p2RoleType, RoleType>;

/** A v1.2 user role (standard or `ext:`) in the v1.1 vocabulary. */
export function v1p1RoleOf(role: string): string {
  return (V1P1_ROLE_OF as Readonly<Record<string, string>>)[role] ?? role;
}

/** The `/students` / `/teachers` partition of a stored v1.1 role; `ext:` roles belong to neither. */
export function roleGroupOfStored(role: string): RosterRoleGroup {
  return (ROLE_TYPES as readonly string[]).includes(role) ? roleGroupOf(role as RosterRole) : 'other';
}

/**
 * The stored v1.2 `roles` of a v1.1 users row: one `{roleType: primary, role, org}` per org, in
 * the row's order, `administrator` mapped by each org's type. JSON text (jsonb on COPY).
 */
export function v1p1RolesJson(role: string, orgs: readonly string[], orgType: (org: string) => string | undefined): string {
  let out = '[';
  for (let i = 0; i < orgs.length; i++) {
    const org = orgs[i]!;
    out += `${i > 0 ? ',' : ''}{"roleType":"primary","role":${JSON.stringify(v1p2RoleOf(role, orgType(org)))},"org":${JSON.stringify(org)}}`;
  }
  return `${out}]`;
}
