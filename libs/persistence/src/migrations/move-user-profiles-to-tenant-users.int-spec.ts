import { randomUUID } from 'node:crypto';
import type { DataSource, QueryRunner } from 'typeorm';
import { createTestDatabase, World, type TestDatabase } from '@edu/testing';
import { createDataSource } from '../data-source';
import { pendingSchemaChanges } from '../migrate';
import { MoveUserProfilesToTenantUsers1763770100000 } from './1763770100000-MoveUserProfilesToTenantUsers';

/** The migration on data written with the shared-profile schema (its `down` recreates that schema). */
describe('MoveUserProfilesToTenantUsers1763770100000', () => {
  const migration = new MoveUserProfilesToTenantUsers1763770100000();
  let db: TestDatabase;
  let ds: DataSource;
  let q: QueryRunner;

  beforeAll(async () => {
    db = await createTestDatabase();
    ds = createDataSource({ url: db.url, poolSize: 2 });
    await ds.initialize();
    q = ds.createQueryRunner();
    await migration.down(q);
  });

  afterAll(async () => {
    await q?.release();
    await ds?.destroy();
    await db?.drop();
  });

  it('gives every tenant-user link the profile its tenant saw and the identifiers its tenant could see', async () => {
    const w = new World(ds);
    const [a, b, c] = [await w.tenant(), await w.tenant(), await w.tenant()];
    const [idpA, idpB, idpC] = [
      (await w.identityProvider(a.id)).id,
      (await w.identityProvider(b.id)).id,
      (await w.identityProvider(c.id)).id,
    ];
    const ident = (idp: string) => ({ id: randomUUID(), idp_id: idp });
    const identifiers = [ident('google'), ident(idpA), ident(idpB), ident(idpC), ident('microsoft')];
    const insertUser = async (email: string, name: string, idps: object[]) =>
      (
        await q.query(
          `INSERT INTO users (email, name, nickname, picture, idp_identifiers) VALUES ($1, $2, $3, $4, $5) RETURNING id`,
          [email, name, `${name} nick`, `https://p.example/${name}.png`, JSON.stringify(idps)],
        )
      )[0].id as string;
    const shared = await insertUser('shared@school.example', 'Shared', identifiers);
    const onlyA = await insertUser('only-a@school.example', 'OnlyA', [identifiers[0]]);
    const nobody = await insertUser('nobody@school.example', 'Nobody', []);
    await q.query(
      `INSERT INTO tenant_users (tenant_id, user_id, constituencies) VALUES ($1, $2, '{staff}'), ($3, $2, '{}'), ($1, $4, '{}')`,
      [a.id, shared, b.id, onlyA],
    );

    await migration.up(q);

    const rows: Record<string, unknown>[] = await q.query(
      `SELECT tenant_id, user_id, constituencies, name, nickname, picture, idp_identifiers FROM tenant_users ORDER BY name, tenant_id = $1 DESC`,
      [a.id],
    );
    const profile = (name: string) => ({ name, nickname: `${name} nick`, picture: `https://p.example/${name}.png` });
    expect(rows).toEqual([
      { tenant_id: a.id, user_id: onlyA, constituencies: [], ...profile('OnlyA'), idp_identifiers: [identifiers[0]] },
      {
        tenant_id: a.id,
        user_id: shared,
        constituencies: ['staff'],
        ...profile('Shared'),
        idp_identifiers: [identifiers[0], identifiers[1], identifiers[4]],
      },
      {
        tenant_id: b.id,
        user_id: shared,
        constituencies: [],
        ...profile('Shared'),
        idp_identifiers: [identifiers[0], identifiers[2], identifiers[4]],
      },
    ]);
    const persons = await q.query(`SELECT id, email FROM users ORDER BY email`);
    expect(persons).toEqual([
      { id: nobody, email: 'nobody@school.example' },
      { id: onlyA, email: 'only-a@school.example' },
      { id: shared, email: 'shared@school.example' },
    ]);
    expect(await pendingSchemaChanges(ds)).toEqual([]);
  });

  it('down gives each person the profile of their oldest link back', async () => {
    await migration.down(q);
    const [shared] = await q.query(
      `SELECT name, nickname, picture, jsonb_array_length(idp_identifiers) AS identifiers FROM users WHERE email = 'shared@school.example'`,
    );
    expect(shared).toEqual({
      name: 'Shared',
      nickname: 'Shared nick',
      picture: 'https://p.example/Shared.png',
      identifiers: 4,
    });
    await migration.up(q);
    expect(await pendingSchemaChanges(ds)).toEqual([]);
  });
});
