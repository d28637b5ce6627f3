import type { DataSource } from 'typeorm';
import { sampleAlertMessage } from '@edu/testing';
import { canonicalSpec, SHARE_EVERYTHING, specHash, type SharingSpec } from '@edu/sharing';

/** A class and who is enrolled in it (roster sourcedIds), teachers first. */
export interface RosterClass {
  id: string;
  teachers: string[];
  students: string[];
}

const STAMP = `'active', '2025-01-01T00:00:00Z'`;
const nextOrdinal = (table: string) => `(SELECT COALESCE(max(ordinal), -1) + 1 FROM ${table} WHERE tenant_id = $1)`;

/**
 * A minimal roster for data sharing (users, classes, enrollments; ordinals unique per tenant),
 * then the tenant's roster data version bumped as an import bumps it.
 */
export async function putRoster(ds: DataSource, tenantId: string, classes: RosterClass[]): Promise<void> {
  const school = 'org-school';
  for (const c of classes) {
    const people = [...c.teachers.map((id) => [id, 'teacher']), ...c.students.map((id) => [id, 'student'])];
    for (const [id, role] of people)
      await ds.query(
        `INSERT INTO roster_users (tenant_id, sourced_id, status, date_last_modified, ordinal, username, enabled_user, given_name, family_name, role, email, org_sourced_ids, role_group, group_ordinal)
         VALUES ($1, $2, ${STAMP}, ${nextOrdinal('roster_users')}, $2, true, 'Given', 'Family', $3, $2 || '@school.example', $4, $5,
                 (SELECT COALESCE(max(group_ordinal), -1) + 1 FROM roster_users WHERE tenant_id = $1 AND role_group = $5))
         ON CONFLICT (tenant_id, sourced_id) DO NOTHING`,
        [tenantId, id, role, [school], role === 'student' ? 'student' : 'staff'],
      );
    await ds.query(
      `INSERT INTO roster_classes (tenant_id, sourced_id, status, date_last_modified, ordinal, title, class_type, course_sourced_id, school_sourced_id, term_sourced_ids)
       VALUES ($1, $2, ${STAMP}, ${nextOrdinal('roster_classes')}, $2, 'scheduled', 'crs-1', $3, '{}')`,
      [tenantId, c.id, school],
    );
    for (const [id, role] of people)
      await ds.query(
        `INSERT INTO roster_enrollments (tenant_id, sourced_id, status, date_last_modified, ordinal, class_sourced_id, school_sourced_id, user_sourced_id, role)
         VALUES ($1, $2, ${STAMP}, ${nextOrdinal('roster_enrollments')}, $3, $4, $5, $6)`,
        [tenantId, `enr-${c.id}-${id}`, c.id, school, id, role],
      );
  }
  await ds.query(
    `INSERT INTO roster_data_versions (tenant_id, version, imported_at) VALUES ($1, 1, now())
     ON CONFLICT (tenant_id) DO UPDATE SET version = roster_data_versions.version + 1, imported_at = now()`,
    [tenantId],
  );
}

/**
 * Makes `spec` the deployment's active sharing as the Identity API stores it on activation (the
 * canonical spec and its hash, in one transaction with the tenant's sharing version bump).
 */
export async function activateSharing(
  ds: DataSource,
  d: { id: string; tenantId: string; appId: string },
  spec: Partial<SharingSpec>,
): Promise<void> {
  const active = canonicalSpec({ ...SHARE_EVERYTHING, ...spec });
  await ds.transaction(async (em) => {
    await em.query(
      `INSERT INTO deployment_sharing (deployment_id, tenant_id, app_id, active, active_hash, activated_at)
       VALUES ($1, $2, $3, $4, $5, now())
       ON CONFLICT (deployment_id) DO UPDATE SET active = EXCLUDED.active, active_hash = EXCLUDED.active_hash, activated_at = now()`,
      [d.id, d.tenantId, d.appId, JSON.stringify(active), specHash(active)],
    );
    await em.query(
      `INSERT INTO sharing_versions (tenant_id, version) VALUES ($1, 1)
       ON CONFLICT (tenant_id) DO UPDATE SET version = sharing_versions.version + 1`,
      [d.tenantId],
    );
  });
}

type Message = ReturnType<typeof sampleAlertMessage> & {
  recipient: { ext_id: string; primary_email: string };
  alerts: { alerts: { entity: { ext_id: string } }[] }[];
};

/** A sample alert message to `recipient` about `students` (one alert group each), named by roster sourcedId. */
export function messageAbout(recipient: string, students: string[]): Message {
  const m = sampleAlertMessage({ groups: students.length }) as Message;
  m.recipient.ext_id = recipient;
  m.alerts.forEach((g, i) => g.alerts.forEach((a) => (a.entity.ext_id = students[i])));
  return m;
}
