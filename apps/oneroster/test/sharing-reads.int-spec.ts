/**
 * Data sharing on the rostering API, case by case (the property test covers the whole read
 * surface): HTTP caching keyed by the sharing, resources, withheld classes and fields in both
 * versions, gradebook writes against unshared references, paging through a shared collection,
 * and visibility computed once per sharing and data version.
 */
import { fullPackage, writeFolder } from './support/csv-package';
import { PREFIX, RosterHarness, SCOPE, type TenantSetup } from './support/harness';
import { expectImsxError, parseLinks } from './support/imsx';
import { importFolder } from './support/load';
import { activateSharing } from './support/sharing';
import { SCOPE_V1P2, V1P2 } from './support/v1p2';

const ids = (body: Record<string, unknown>, key: string) =>
  (body[key] as Array<{ sourcedId: string }>).map((o) => o.sourcedId);

describe('OneRoster reads under a school’s data sharing', () => {
  const h = new RosterHarness();
  let T: TenantSetup;
  let twin: TenantSetup;
  let token: string;
  let twinToken: string;

  beforeAll(async () => {
    await h.start();
    T = await h.tenant();
    const report = await importFolder(h, T.tenantId, writeFolder(fullPackage()));
    expect(report.status).toBe('succeeded');
    twin = await h.otherApp(T);
    const scopes = [...Object.values(SCOPE), ...Object.values(SCOPE_V1P2)];
    token = await h.token(T, scopes);
    twinToken = await h.token(twin, scopes);
  });

  afterAll(() => h.stop());

  it('keys entity tags and cached answers by the sharing: an activation changes the tag, alike sharings share it', async () => {
    const before = await h.get('users', token).expect(200);
    expect(ids(before.body, 'users')).toEqual(['usr-p1', 'usr-s1', 'usr-s2', 'usr-t1']);
    const tag = before.headers['etag'] as string;
    await h.get('users', token).set('If-None-Match', tag).expect(304);

    await activateSharing(h, T, { mode: 'classes', classes: ['cls-2'] });
    const after = await h.get('users', token).set('If-None-Match', tag).expect(200);
    expect(ids(after.body, 'users')).toEqual(['usr-s2']);
    expect(after.headers['etag']).not.toBe(tag);

    await activateSharing(h, twin, { mode: 'classes', classes: ['cls-2', 'cls-2'] });
    const twinRead = await h.get('users', twinToken).expect(200);
    expect(twinRead.headers['etag']).toBe(after.headers['etag']);
    await h
      .get('users', twinToken)
      .set('If-None-Match', after.headers['etag'] as string)
      .expect(304);
  });

  it('shares resources of shared classes and courses only', async () => {
    await activateSharing(h, T, { mode: 'classes', classes: ['cls-2'] });
    expect(ids((await h.get('resources', token).expect(200)).body, 'resources')).toEqual(['res-2']);
    await h.get('resources/res-1', token).expect(404);
    const v12 = await h.get(`${V1P2.resources}/resources`, token).expect(200);
    expect(ids(v12.body, 'resources')).toEqual(['res-2']);
    expect((await h.get('classes/cls-1/resources', token).expect(200)).body).toEqual({ resources: [] });
    await h.get(`${V1P2.resources}/classes/cls-1/resources`, token).expect(404);

    await activateSharing(h, T, { mode: 'schools', schools: ['org-s1'] });
    expect(ids((await h.get('resources', token).expect(200)).body, 'resources')).toEqual(['res-1', 'res-2']);
  });

  it('withholds demographics as a class and fields by category, in both versions; filters and sorts on them are refused', async () => {
    await activateSharing(h, T, { mode: 'all', withhold: ['demographics', 'contact', 'identifiers'] });
    expect((await h.get('demographics', token).expect(200)).body).toEqual({ demographics: [] });
    expectImsxError(await h.get('demographics/usr-s1', token), 404, 'unknownobject');
    const user = (await h.get('users/usr-s1', token).expect(200)).body.user;
    expect(user).toMatchObject({ sourcedId: 'usr-s1', givenName: 'Sam' });
    for (const f of ['email', 'identifier', 'userIds', 'sms', 'phone']) expect(user).not.toHaveProperty(f);
    const v12 = (await h.get(`${V1P2.rostering}/users/usr-s1`, token).expect(200)).body.user;
    for (const f of ['email', 'identifier', 'userIds', 'userMasterIdentifier']) expect(v12).not.toHaveProperty(f);
    expect((await h.get(`users?filter=${encodeURIComponent("email='sam@school.example'")}`, token)).status).toBe(400);
    expect((await h.get(`${V1P2.rostering}/users?sort=email`, token)).status).toBe(400);
    const selected = await h.get('users/usr-s1?fields=sourcedId,email', token).expect(200);
    expect(selected.body.user).toEqual({ sourcedId: 'usr-s1' });

    await activateSharing(h, T, { mode: 'all', withhold: ['birth_date'] });
    const d = (await h.get('demographics/usr-s1', token).expect(200)).body.demographics;
    expect(d).toMatchObject({ sourcedId: 'usr-s1', sex: 'female' });
    expect(d).not.toHaveProperty('birthDate');
    expect((await h.get('users/usr-s1', token).expect(200)).body.user.email).toBe('sam@school.example');
  });

  it('refuses gradebook writes that name unshared classes, students or line items, like unknown ones; hidden objects cannot be deleted', async () => {
    await activateSharing(h, T, { mode: 'all' });
    const lineItem = (cls: string) => ({
      lineItem: {
        title: 'Quiz',
        assignDate: '2025-03-01T08:00:00Z',
        dueDate: '2025-03-08T08:00:00Z',
        class: { sourcedId: cls },
        resultValueMin: 0,
        resultValueMax: 10,
      },
    });
    await h.put('lineItems/li-own-1', lineItem('cls-1'), token).expect(201);
    await h.put('lineItems/li-own-2', lineItem('cls-2'), token).expect(201);

    await activateSharing(h, T, { mode: 'classes', classes: ['cls-1'] });
    expectImsxError(await h.put('lineItems/li-own-3', lineItem('cls-2'), token), 400, 'invaliddata');
    await h.put('lineItems/li-own-3', lineItem('cls-1'), token).expect(201);
    const result = (li: string, student: string) => ({
      result: {
        lineItem: { sourcedId: li },
        student: { sourcedId: student },
        scoreStatus: 'fully graded',
        score: 5,
        scoreDate: '2025-03-09',
      },
    });
    expectImsxError(await h.put('results/r-own-1', result('li-own-2', 'usr-s2'), token), 400, 'invaliddata');
    await h.put('results/r-own-2', result('li-own-1', 'usr-s1'), token).expect(201);
    expectImsxError(await h.delete('lineItems/li-own-2', token), 404, 'unknownobject');
    await h.delete('lineItems/li-own-3', token).expect(204);

    await activateSharing(h, T, { mode: 'all' });
    await h.get('lineItems/li-own-2', token).expect(200);
  });

  /** Every page of users (limit 1, following `next` links), and the last two in descending order. */
  const pageThroughUsers = async () => {
    const seen: string[] = [];
    let url: string | undefined = `${PREFIX}/users?limit=1`;
    while (url) {
      const res: { body: Record<string, unknown>; headers: Record<string, string> } = await h
        .get(url, token)
        .expect(200);
      expect(res.headers['x-total-count']).toBe('3');
      seen.push(...ids(res.body, 'users'));
      const next: URL | undefined = parseLinks(res.headers['link']).next;
      url = next ? `${next.pathname}${next.search}` : undefined;
    }
    const desc = await h.get('users?limit=2&offset=1&sort=sourcedId&orderBy=desc', token).expect(200);
    return { seen, desc: ids(desc.body, 'users') };
  };
  /** The scope of the deployment's active sharing at the newest data version, and how many users it copied. */
  const activeScope = `(SELECT s.id FROM sharing_scopes AS s JOIN deployment_sharing AS d ON d.active_hash = s.spec_hash
     WHERE d.deployment_id = $1 ORDER BY s.roster_version DESC LIMIT 1)`;
  const copiedUsers = async () =>
    (
      await h.ds.query(`SELECT count(*)::int AS n FROM shared_user_rows WHERE scope_id = ${activeScope}`, [
        T.deploymentId,
      ])
    )[0].n as number;

  it('pages through a shared collection with correct totals and links, both directions', async () => {
    await activateSharing(h, T, { mode: 'schools', schools: ['org-s1'] });
    const expected = { seen: ['usr-p1', 'usr-s1', 'usr-t1'], desc: ['usr-s1', 'usr-p1'] };
    expect(await pageThroughUsers()).toEqual(expected);
    expect(await copiedUsers()).toBe(3);
    const students = await h.get('students?limit=1&offset=0', token).expect(200);
    expect([ids(students.body, 'users'), students.headers['x-total-count']]).toEqual([['usr-s1'], '1']);

    // A scope above MAX_COPIED_USERS keeps no copy: its pages read the table by key, alike.
    await activateSharing(h, T, { mode: 'schools', schools: ['org-s1'], withhold: ['birth_date'] });
    await h.get('classes', token).expect(200);
    await h.ds.query(`DELETE FROM shared_user_rows WHERE scope_id = ${activeScope}`, [T.deploymentId]);
    expect(await copiedUsers()).toBe(0);
    expect(await pageThroughUsers()).toEqual(expected);
  });

  it('copies shared users with exactly the columns of roster_users', async () => {
    const columns = async (table: string) =>
      (
        (await h.ds.query(
          `SELECT column_name, data_type, is_nullable FROM information_schema.columns
            WHERE table_schema = 'public' AND table_name = $1 ORDER BY ordinal_position`,
          [table],
        )) as object[]
      ).map((c) => JSON.stringify(c));
    const copy = await columns('shared_user_rows');
    expect(copy.slice(0, 2).map((c) => JSON.parse(c).column_name)).toEqual(['scope_id', 'pos']);
    expect(copy.slice(2)).toEqual(await columns('roster_users'));
  });

  it('computes a visibility once per sharing and data version, and again after an import', async () => {
    await activateSharing(h, T, { mode: 'classes', classes: ['cls-1'], withhold: ['contact'] });
    for (let i = 0; i < 3; i++) await h.get('classes', token).expect(200);
    const count = async () =>
      (await h.ds.query('SELECT count(*)::int AS n FROM sharing_scopes WHERE tenant_id = $1', [T.tenantId]))[0]
        .n as number;
    const scopes = await count();
    for (let i = 0; i < 3; i++) await h.get('users', token).expect(200);
    expect(await count()).toBe(scopes);
    const report = await importFolder(h, T.tenantId, writeFolder(fullPackage()));
    expect(report.status).toBe('succeeded');
    expect(ids((await h.get('classes', token).expect(200)).body, 'classes')).toEqual(['cls-1']);
    expect(await count()).toBe(scopes + 1);
  });
});
