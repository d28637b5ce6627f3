import type { DataSource, QueryRunner } from 'typeorm';
import { createTestDatabase, World, type TestDatabase } from '@edu/testing';
import { createDataSource } from '../data-source';
import { pendingSchemaChanges } from '../migrate';
import { AddOneRosterV1p21763770600000 } from './1763770600000-AddOneRosterV1p2';
import { StoreUserRolesAsText1765400000000 } from './1765400000000-StoreUserRolesAsText';

/** The migration on users stored by the v1.1 importer (its `down` recreates the v1.1-only schema). */
describe('AddOneRosterV1p21763770600000', () => {
  const migration = new AddOneRosterV1p21763770600000();
  /** A later migration whose column is derived from `roles`: down before this one's down, up after its up. */
  const rolesText = new StoreUserRolesAsText1765400000000();
  let db: TestDatabase;
  let ds: DataSource;
  let q: QueryRunner;

  beforeAll(async () => {
    db = await createTestDatabase();
    ds = createDataSource({ url: db.url, poolSize: 2 });
    await ds.initialize();
    q = ds.createQueryRunner();
    await rolesText.down(q);
    await migration.down(q);
  });

  afterAll(async () => {
    await q?.release();
    await ds?.destroy();
    await db?.drop();
  });

  it('gives every stored user the v1.2 view of its role and orgs: primary org = first org, administrators by org type', async () => {
    const tenant = (await new World(ds).tenant()).id;
    const stamp = '2024-01-31T00:00:00.000Z';
    const org = (id: string, type: string, ordinal: number) =>
      q.query(
        `INSERT INTO roster_orgs (tenant_id, sourced_id, status, date_last_modified, ordinal, name, type) VALUES ($1, $2, 'active', $3, $4, $2, $5)`,
        [tenant, id, stamp, ordinal, type],
      );
    await org('district-1', 'district', 0);
    await org('school-1', 'school', 1);
    const user = (id: string, role: string, orgs: string[], ordinal: number) =>
      q.query(
        `INSERT INTO roster_users (tenant_id, sourced_id, status, date_last_modified, ordinal, username, enabled_user, given_name, family_name, role, org_sourced_ids, role_group, group_ordinal)
         VALUES ($1, $2, 'active', $3, $4, $2, true, 'G', 'F', $5, $6, 'staff', $4)`,
        [tenant, id, stamp, ordinal, role, orgs],
      );
    await user('admin-1', 'administrator', ['school-1', 'district-1'], 0);
    await user('teacher-1', 'teacher', ['school-1'], 1);
    await user('orphan-1', 'administrator', ['gone-org'], 2);

    await migration.up(q);
    await rolesText.up(q);

    const rows: { sourced_id: string; primary_org_sourced_id: string; roles: unknown; date_last_modified: Date }[] =
      await q.query(
        `SELECT sourced_id, primary_org_sourced_id, roles, date_last_modified FROM roster_users WHERE tenant_id = $1 ORDER BY ordinal`,
        [tenant],
      );
    expect(rows.map((r) => [r.sourced_id, r.primary_org_sourced_id, r.roles])).toEqual([
      [
        'admin-1',
        'school-1',
        [
          { roleType: 'primary', role: 'siteAdministrator', org: 'school-1' },
          { roleType: 'primary', role: 'districtAdministrator', org: 'district-1' },
        ],
      ],
      ['teacher-1', 'school-1', [{ roleType: 'primary', role: 'teacher', org: 'school-1' }]],
      // An org the tenant no longer has: its type is unknown, so the school-level reading.
      ['orphan-1', 'gone-org', [{ roleType: 'primary', role: 'siteAdministrator', org: 'gone-org' }]],
    ]);
    // The v1.1 data did not change: nothing is stamped as modified.
    expect(rows.every((r) => r.date_last_modified.toISOString() === stamp)).toBe(true);
    expect(await pendingSchemaChanges(ds)).toEqual([]);
  });
});
