/**
 * v1.2 `User.roles` from the stored jsonb text (`[{"org": "s1", "role": "teacher", "roleType":
 * "primary", ...}]`, org by sourcedId) to answer JSON with a GUIDRef per org, in the model's key
 * order. Most users of a school share the same few role lists, so each distinct stored text is
 * written once per serializer and then reused (bounded).
 */

interface StoredRole {
  roleType?: unknown;
  role?: unknown;
  org?: unknown;
  userProfile?: unknown;
  beginDate?: unknown;
  endDate?: unknown;
}

const q = JSON.stringify;
const OPTIONAL = ['userProfile', 'beginDate', 'endDate'] as const;
/** Distinct stored role lists kept written per serializer. */
const MAX_WRITTEN = 10_000;

function writeRole(role: StoredRole, orgRef: (id: string) => string): string {
  let out = `{"roleType":${q(role.roleType)},"role":${q(role.role)},"org":${orgRef(String(role.org))}`;
  for (const key of OPTIONAL) {
    const value = role[key];
    if (typeof value === 'string' && value !== '') out += `,"${key}":${q(value)}`;
  }
  return `${out}}`;
}

/** A writer of stored role lists for one href root (the org GUIDRef writer). */
export function rolesWriter(orgRef: (id: string) => string): (stored: string) => string {
  // A plain map, emptied when full: a hit (every row of a page, usually) costs one lookup, with
  // no recency bookkeeping; a tenant with more distinct role lists than this only writes more.
  const written = new Map<string, string>();
  return (stored) => {
    let out = written.get(stored);
    if (out === undefined) {
      const roles = JSON.parse(stored) as StoredRole[];
      out = `[${roles.map((r) => writeRole(r, orgRef)).join(',')}]`;
      if (written.size >= MAX_WRITTEN) written.clear();
      written.set(stored, out);
    }
    return out;
  };
}
