import { RosterHarness, SCOPE, type TenantSetup } from './support/harness';
import { expectImsxError, parseLinks } from './support/imsx';
import { loadFixture } from './support/load';
import { districtFixture } from './support/roster-fixture';

const ISO_DATETIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
const COMPACT_DATETIME = /^\d{8}T\d{6}\.\d{3}Z$/;

/**
 * The consumer compatibility profile (`onerosterProfile = 'compatibility'`): what stock sync
 * clients need — Google Classroom asks `limit=10000`, Microsoft SDS `limit=5000`, both expect
 * ISO 8601 dates. Off by default: the service spec's strict rules apply.
 */
describe('OneRoster consumer compatibility profile', () => {
  const h = new RosterHarness();
  let strict: TenantSetup;
  let compat: TenantSetup;
  let isoCompact: TenantSetup;
  const USERS = 2_345;

  beforeAll(async () => {
    await h.start();
    strict = await h.tenant({ rootOrg: 'org-d1' });
    const fixture = districtFixture();
    const live = fixture.rows.filter((r) => !r.tombstone);
    // Enough users for several pages of 1000.
    const extra = Array.from({ length: USERS - live.filter((r) => r.file === 'users').length }, (_, i) => ({
      file: 'users' as const,
      row: {
        sourcedId: `usr-bulk-${String(i).padStart(5, '0')}`,
        enabledUser: 'true',
        orgSourcedIds: 'org-s1',
        role: 'student',
        username: `bulk${i}`,
        givenName: 'Bulk',
        familyName: `Student ${i}`,
      },
    }));
    await loadFixture(h, strict, { ...fixture, rows: [...live, ...extra] });
    compat = await h.otherApp(strict, { onerosterProfile: 'compatibility' });
    isoCompact = await h.otherApp(strict, { onerosterProfile: 'compatibility', onerosterDateFormat: 'compact' });
  });

  afterAll(() => h.stop());

  it('answers limit=10000 with 400 by default (service spec)', async () => {
    const token = await h.token(strict, [SCOPE.roster]);
    for (const limit of ['10000', '5000', '1001'])
      expectImsxError(await h.get(`users?limit=${limit}`, token), 400, 'invaliddata', 'limit');
    const page = await h.get('users?limit=1000', token).expect(200);
    expect(page.body.users[0].dateLastModified).toMatch(COMPACT_DATETIME);
  });

  it('serves limit=10000 as pages of 1000 with correct next and last links, in ISO 8601', async () => {
    const token = await h.token(compat, [SCOPE.roster]);
    const seen: string[] = [];
    let url: string | undefined = 'users?limit=10000';
    let pages = 0;
    while (url) {
      const res = await h.get(url, token).expect(200);
      expect(res.headers['x-total-count']).toBe(String(USERS));
      expect(res.body.users.length).toBe(Math.min(1000, USERS - pages * 1000));
      const links = parseLinks(res.headers['link']);
      expect(links.last?.searchParams.get('limit')).toBe('1000');
      expect(links.last?.searchParams.get('offset')).toBe('2000');
      if (pages < 2) expect(links.next?.searchParams.get('offset')).toBe(String((pages + 1) * 1000));
      for (const u of res.body.users) expect(u.dateLastModified).toMatch(ISO_DATETIME);
      seen.push(...res.body.users.map((u: { sourcedId: string }) => u.sourcedId));
      pages++;
      url = links.next ? `${links.next.pathname}${links.next.search}` : undefined;
    }
    expect(pages).toBe(3);
    expect(new Set(seen).size).toBe(USERS);
  });

  it('clamps on every collection, filtered and sorted ones too (SDS asks limit=5000)', async () => {
    const token = await h.token(compat, [SCOPE.roster]);
    const filter = encodeURIComponent("role='student' AND status='active'");
    const res = await h.get(`users?limit=5000&offset=1000&filter=${filter}&sort=familyName`, token).expect(200);
    expect(res.body.users).toHaveLength(1000);
    const links = parseLinks(res.headers['link']);
    expect(links.next?.searchParams.get('limit')).toBe('1000');
    expect(links.next?.searchParams.get('filter')).toBe("role='student' AND status='active'");
    expect((await h.get('schools/org-s1/students?limit=10000', token).expect(200)).body.users.length).toBeGreaterThan(
      1000 - 1,
    );
    expect((await h.get('classes?limit=10000', token).expect(200)).body.classes.length).toBeGreaterThan(0);
  });

  it('still refuses malformed limits and offsets', async () => {
    const token = await h.token(compat, [SCOPE.roster]);
    for (const limit of ['0', '-1', 'abc', '1.5', '99999999999999999999'])
      expectImsxError(await h.get(`users?limit=${limit}`, token), 400, 'invaliddata', 'limit');
    expectImsxError(await h.get('users?offset=-1&limit=10000', token), 400, 'invaliddata', 'offset');
  });

  it('prints ISO 8601 dates under the profile whatever the date format setting says', async () => {
    const token = await h.token(isoCompact, [SCOPE.roster]);
    const term = (await h.get('terms/as-t1', token).expect(200)).body.academicSession;
    expect(term).toMatchObject({ startDate: '2023-08-15', endDate: '2023-12-20' });
    expect(term.dateLastModified).toMatch(ISO_DATETIME);
  });
});
