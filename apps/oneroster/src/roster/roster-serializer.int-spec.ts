import { randomUUID } from 'node:crypto';
import { Client } from 'pg';
import { createTestDatabase, type TestDatabase } from '@edu/testing';
import { ROSTER_TABLES, sharedRoot } from '../query/roster-tables';
import { rowSerializer, type JsonFormat } from './roster-serializer';

const ROOT = 'https://h.example/ims/oneroster/v1p1';
/** Every character JSON must escape, the ones it must not, and the edges of UTF-16. */
const TRICKY = `q"uote b\\ackslash /slash \b\f\n\r\t \u0001\u001f\u007f é 漢 😀 \u2028\u2029 end`;

describe('rowSerializer on PostgreSQL: rows as selected, written as JSON.stringify would', () => {
  let db: TestDatabase;
  let c: Client;
  const tenant = randomUUID();

  beforeAll(async () => {
    db = await createTestDatabase();
    c = new Client({ connectionString: db.url });
    await c.connect();
    const insert = `INSERT INTO roster_users (tenant_id, sourced_id, status, date_last_modified, ordinal, username, enabled_user, given_name, family_name, middle_name, role, identifier, email, org_sourced_ids, agent_sourced_ids, grades, user_ids, metadata, role_group, group_ordinal)
      VALUES ($1::uuid, $2, 'active', '2024-03-05T06:07:08.009Z', $3, $4, $5, $6, $7, $8, 'student', $9, NULL, $10, '{}', $11, $12::jsonb, $13::jsonb, 'student', $3)`;
    await c.query(insert, [
      tenant,
      'u/1 "x"',
      0,
      TRICKY,
      true,
      TRICKY,
      'Doe',
      '',
      '',
      ['o 1'],
      ['09', '', null, TRICKY],
      JSON.stringify([{ type: 'LDAP', identifier: TRICKY }]),
      JSON.stringify({ k: TRICKY, gone: null }),
    ]);
    await c.query(insert, [tenant, 'u2', 1, 'plain', false, 'A', 'B', null, null, [], ['', null], '[]', '{}']);
  });

  afterAll(async () => {
    await c?.end();
    await db?.drop();
  });

  async function written(fmt: JsonFormat, fields?: string[]): Promise<string[]> {
    const s = rowSerializer(ROSTER_TABLES.user, fields, fmt);
    const { rows } = await c.query({
      text: `SELECT ${s.columns} FROM roster_users AS t WHERE t.tenant_id = $1::uuid ORDER BY t.ordinal`,
      values: [tenant],
      rowMode: 'array',
    });
    return rows.map((r) => s.write(r));
  }

  it('escapes text exactly as JSON.stringify, omits empty and absent values, keeps list order', async () => {
    const [first, second] = await written({ dateMode: 'compact', booleans: 'string', hrefRoots: sharedRoot(ROOT) });
    expect(first).toContain(`"username":${JSON.stringify(TRICKY)}`);
    expect(first).toContain(`"grades":${JSON.stringify(['09', TRICKY])}`);
    expect(JSON.parse(first as string)).toEqual({
      sourcedId: 'u/1 "x"',
      status: 'active',
      dateLastModified: '20240305T060708.009Z',
      username: TRICKY,
      userIds: [{ type: 'LDAP', identifier: TRICKY }],
      enabledUser: 'true',
      givenName: TRICKY,
      familyName: 'Doe',
      role: 'student',
      orgs: [{ href: `${ROOT}/orgs/o%201`, sourcedId: 'o 1', type: 'org' }],
      grades: ['09', TRICKY],
      metadata: { k: TRICKY },
    });
    expect(JSON.parse(second as string)).toEqual({
      sourcedId: 'u2',
      status: 'active',
      dateLastModified: '20240305T060708.009Z',
      username: 'plain',
      enabledUser: 'false',
      givenName: 'A',
      familyName: 'B',
      role: 'student',
    });
  });

  it('follows the deployment format and the field selection', async () => {
    const [first] = await written({ dateMode: 'iso8601', booleans: 'json', hrefRoots: sharedRoot(ROOT) }, [
      'enabledUser',
      'dateLastModified',
      'orgs',
      'middleName',
      'sourcedId',
    ]);
    expect(first).toBe(
      `{"enabledUser":true,"dateLastModified":"2024-03-05T06:07:08.009Z","orgs":[{"href":"${ROOT}/orgs/o%201","sourcedId":"o 1","type":"org"}],"sourcedId":"u/1 \\"x\\""}`,
    );
  });
});
