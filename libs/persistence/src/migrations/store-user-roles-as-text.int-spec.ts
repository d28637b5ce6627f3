import { randomUUID } from 'node:crypto';
import { Client } from 'pg';
import { createTestDatabase, withQueryRunner, type TestDatabase } from '@edu/testing';
import { pendingSchemaChanges } from '../migrate';
import { StoreUserRolesAsText1765400000000 } from './1765400000000-StoreUserRolesAsText';

const TEACHER = [{ org: 's1', role: 'teacher', roleType: 'primary' }];
const TWO_ROLES = [
  { org: 's1', role: 'teacher', roleType: 'primary' },
  { org: 'd1', role: 'ext:coach', roleType: 'secondary', beginDate: '2025-08-01' },
];

describe('migration 1765400000000: a user’s roles kept as JSON text beside the jsonb', () => {
  let db: TestDatabase;
  let c: Client;
  const tenant = randomUUID();

  const insertUser = (id: string, ordinal: number, roles: unknown) =>
    c.query(
      `INSERT INTO roster_users (tenant_id, sourced_id, status, date_last_modified, ordinal, username, enabled_user, given_name, family_name, role, org_sourced_ids, role_group, group_ordinal, roles)
       VALUES ($1::uuid, $2, 'active', now(), $3, $2, true, 'G', 'F', 'teacher', '{s1}', 'staff', $3, $4::jsonb)`,
      [tenant, id, ordinal, JSON.stringify(roles)],
    );
  const rolesOf = async (table: string, id: string) =>
    (
      await c.query<{ roles: string; roles_text: string | null }>(
        `SELECT roles::text AS roles, roles_text FROM ${table} WHERE sourced_id = $1`,
        [id],
      )
    ).rows[0];

  beforeAll(async () => {
    db = await createTestDatabase();
    c = new Client({ connectionString: db.url });
    await c.connect();
    await insertUser('u-1', 0, TEACHER);
    await insertUser('u-2', 1, []);
  });

  afterAll(async () => {
    await c?.end();
    await db?.drop();
  });

  it('keeps the stored list’s text, NULL without roles, and follows every change of the roles', async () => {
    const one = await rolesOf('roster_users', 'u-1');
    expect(one?.roles_text).toBe(one?.roles);
    expect(JSON.parse(one?.roles_text ?? '')).toEqual(TEACHER);
    expect((await rolesOf('roster_users', 'u-2'))?.roles_text).toBeNull();

    await c.query(`UPDATE roster_users SET roles = $2::jsonb WHERE sourced_id = $1`, [
      'u-2',
      JSON.stringify(TWO_ROLES),
    ]);
    const two = await rolesOf('roster_users', 'u-2');
    expect(two?.roles_text).toBe(two?.roles);
    expect(JSON.parse(two?.roles_text ?? '')).toEqual(TWO_ROLES);
  });

  it('refuses a value written to the column directly', async () => {
    await expect(c.query(`UPDATE roster_users SET roles_text = '[]' WHERE sourced_id = 'u-1'`)).rejects.toThrow(
      'column "roles_text" can only be updated to DEFAULT',
    );
  });

  it('goes down and up again, filling the copies of shared users made before it, and leaves no schema drift', async () => {
    const migration = new StoreUserRolesAsText1765400000000();
    await withQueryRunner(db.url, async (q, ds) => {
      await migration.down(q);
      const scope = await c.query<{ id: string }>(
        `INSERT INTO sharing_scopes (tenant_id, spec_hash, roster_version) VALUES ($1::uuid, 'h', 1) RETURNING id`,
        [tenant],
      );
      // A copy written before the column existed (as closure-sql.ts writes them: `SELECT u.*`).
      await c.query(
        `INSERT INTO shared_user_rows SELECT $1::bigint, (row_number() OVER (ORDER BY u.ordinal) - 1)::integer, u.*
           FROM roster_users AS u WHERE u.tenant_id = $2::uuid`,
        [scope.rows[0]?.id, tenant],
      );
      await migration.up(q);
      for (const id of ['u-1', 'u-2']) {
        const copy = await rolesOf('shared_user_rows', id);
        expect(copy?.roles_text).toBe(copy?.roles);
        expect(copy?.roles_text).toBe((await rolesOf('roster_users', id))?.roles_text);
      }
      expect(await pendingSchemaChanges(ds)).toEqual([]);
    });
  });
});
