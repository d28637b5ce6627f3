/** Changes at a source tenant, as a delta package: one user renamed, one added, one enrollment ended. */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import type { RosterHarness } from './harness';

export async function writeDeltaPackage(
  h: RosterHarness,
  tenantId: string,
): Promise<{ dir: string; renamedUser: string; addedUser: string; endedEnrollment: string }> {
  const [user] = await h.ds.query(
    `SELECT * FROM roster_users WHERE tenant_id = $1 AND status = 'active' AND role = 'student' ORDER BY sourced_id LIMIT 1`,
    [tenantId],
  );
  const [enrollment] = await h.ds.query(
    `SELECT sourced_id FROM roster_enrollments WHERE tenant_id = $1 AND status = 'active' ORDER BY sourced_id LIMIT 1`,
    [tenantId],
  );
  const now = new Date(Date.now() + 1000).toISOString();
  const dir = mkdtempSync(path.join(tmpdir(), 'sync-delta-'));
  const manifest = ['propertyName,value', 'manifest.version,1.0', 'oneroster.version,1.1'];
  for (const f of [
    'academicSessions',
    'categories',
    'classes',
    'classResources',
    'courses',
    'courseResources',
    'demographics',
    'lineItems',
    'orgs',
    'resources',
    'results',
  ])
    manifest.push(`file.${f},absent`);
  manifest.push('file.users,delta', 'file.enrollments,delta');
  writeFileSync(path.join(dir, 'manifest.csv'), `${manifest.join('\n')}\n`);
  const header =
    'sourcedId,status,dateLastModified,enabledUser,orgSourcedIds,role,username,userIds,givenName,familyName,middleName,identifier,email,sms,phone,agentSourcedIds,grades,password';
  const orgs = (user.org_sourced_ids as string[]).join(',');
  const added = `usr-added-${Date.now()}`;
  writeFileSync(
    path.join(dir, 'users.csv'),
    `${header}\n${user.sourced_id},active,${now},true,"${orgs}",student,${user.username},,Renamed,${user.family_name},,,,,,,,\n` +
      `${added},active,${now},true,"${orgs}",student,${added},,New,Student,,,,,,,,\n`,
  );
  writeFileSync(
    path.join(dir, 'enrollments.csv'),
    `sourcedId,status,dateLastModified,classSourcedId,schoolSourcedId,userSourcedId,role,primary,beginDate,endDate\n${enrollment.sourced_id},tobedeleted,${now},,,,,,,\n`,
  );
  return { dir, renamedUser: user.sourced_id, addedUser: added, endedEnrollment: enrollment.sourced_id };
}
