import type { DataSource } from 'typeorm';

/** A roster person: a OneRoster user of the school, linked to identity people by e-mail only. */
export interface RosterPerson {
  id: string;
  email: string | null;
  role?: 'student' | 'teacher';
}

/** A class and who is enrolled in it. */
export interface RosterClass {
  id: string;
  people: RosterPerson[];
}

const STAMP = `'active', '2025-01-01T00:00:00Z'`;

/**
 * Puts a minimal roster in place for data sharing tests (what the sharing of classes needs:
 * users, classes, enrollments), with ordinals unique per tenant, then bumps the tenant's roster
 * data version as an import would, so visibility scopes computed before are not reused.
 */
export async function putRoster(
  ds: DataSource,
  tenantId: string,
  o: { classes?: RosterClass[]; unenrolled?: RosterPerson[]; school?: string },
): Promise<void> {
  const school = o.school ?? 'org-school';
  const seen = new Set<string>();
  const users = [...(o.classes ?? []).flatMap((c) => c.people), ...(o.unenrolled ?? [])].filter(
    (u) => !seen.has(u.id) && seen.add(u.id),
  );
  for (const u of users) await insertUser(ds, tenantId, u, school);
  for (const c of o.classes ?? []) {
    await ds.query(
      `INSERT INTO roster_classes (tenant_id, sourced_id, status, date_last_modified, ordinal, title, class_type, course_sourced_id, school_sourced_id, term_sourced_ids)
       VALUES ($1, $2, ${STAMP}, ${nextOrdinal('roster_classes')}, $2, 'scheduled', 'crs-1', $3, '{}')`,
      [tenantId, c.id, school],
    );
    for (const p of c.people)
      await ds.query(
        `INSERT INTO roster_enrollments (tenant_id, sourced_id, status, date_last_modified, ordinal, class_sourced_id, school_sourced_id, user_sourced_id, role)
         VALUES ($1, $2, ${STAMP}, ${nextOrdinal('roster_enrollments')}, $3, $4, $5, $6)`,
        [tenantId, `enr-${c.id}-${p.id}`, c.id, school, p.id, p.role ?? 'student'],
      );
  }
  await ds.query(
    `INSERT INTO roster_data_versions (tenant_id, version, imported_at) VALUES ($1, 1, now())
     ON CONFLICT (tenant_id) DO UPDATE SET version = roster_data_versions.version + 1, imported_at = now()`,
    [tenantId],
  );
}

const nextOrdinal = (table: string) => `(SELECT COALESCE(max(ordinal), -1) + 1 FROM ${table} WHERE tenant_id = $1)`;

async function insertUser(ds: DataSource, tenantId: string, u: RosterPerson, school: string): Promise<void> {
  const role = u.role ?? 'student';
  const group = role === 'student' ? 'student' : 'staff';
  await ds.query(
    `INSERT INTO roster_users (tenant_id, sourced_id, status, date_last_modified, ordinal, username, enabled_user, given_name, family_name, role, email, org_sourced_ids, role_group, group_ordinal)
     VALUES ($1, $2, ${STAMP}, ${nextOrdinal('roster_users')}, $2, true, 'Given', 'Family', $3, $4, $5, $6,
             (SELECT COALESCE(max(group_ordinal), -1) + 1 FROM roster_users WHERE tenant_id = $1 AND role_group = $6))`,
    [tenantId, u.id, role, u.email, [school], group],
  );
}

/** An Identity API call as a school admin or the operator makes it: the status and the JSON body. */
export type ApiCall = (method: string, path: string, body?: unknown) => Promise<{ status: number; body: unknown }>;

/** Saves `spec` as the deployment's draft and activates it, through the real Identity API. */
export async function activateSharing(call: ApiCall, tenantId: string, appId: string, spec: object): Promise<void> {
  const path = `/tenants/${tenantId}/apps/${appId}/sharing`;
  const saved = await call('PUT', path, spec);
  if (saved.status !== 200) throw new Error(`PUT ${path}: ${saved.status} ${JSON.stringify(saved.body)}`);
  const activated = await call('POST', `${path}/activate`);
  if (activated.status !== 200) throw new Error(`POST ${path}/activate: ${activated.status}`);
}
