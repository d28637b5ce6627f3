import type { Response } from 'supertest';
import { PREFIX, RosterHarness, SCOPE, type TenantSetup } from './support/harness';
import { loadFixture } from './support/load';
import { COLLECTION_CASES, SINGLE_CASES } from './support/operations';
import { districtFixture, schoolFixture } from './support/roster-fixture';
import { expectV1p2Error, SCOPE_V1P2, V1P2, V1P2_HREF, v1p2 } from './support/v1p2';
import { expectV1p2, responseSchemaOf } from './support/v1p2/oas-schemas';
import { parseLinks } from './support/imsx';

type Json = ReturnType<typeof JSON.parse>;
const ids = (list: Array<{ sourcedId: string }>) => list.map((o) => o.sourcedId);

/**
 * The OneRoster 1.2 rostering service over the same rows as 1.1 (design §9): every read answers
 * the records the 1.1 read answers, in the 1.2 shapes (validated against schemas derived from the
 * official OpenAPI file), with the 1.2 rules: roles instead of role/orgs, ISO 8601 and string
 * booleans whatever the deployment's 1.1 settings, large limits paged, strict query parameters,
 * 404 for unknown parents, bare imsx error bodies, v1.2 scopes only.
 */
describe('OneRoster 1.2 rostering reads', () => {
  const h = new RosterHarness();
  let D: TenantSetup;
  let S: TenantSetup;
  let v11: string;
  let v12: string;

  beforeAll(async () => {
    await h.start();
    // The 1.1 output settings of the deployment (compact dates, JSON booleans) do not apply to 1.2.
    D = await h.tenant({ rootOrg: 'org-d1', settings: { onerosterDateFormat: 'compact', onerosterBooleans: 'json' } });
    S = await h.tenant({ rootOrg: 'org-b1' });
    await loadFixture(h, D, districtFixture());
    await loadFixture(h, S, schoolFixture());
    v11 = await h.token(D, [SCOPE.roster, SCOPE.demographics]);
    v12 = await h.token(D, [SCOPE_V1P2.roster, SCOPE_V1P2.demographics]);
  });
  afterAll(() => h.stop());

  const get12 = (path: string, token = v12) => v1p2(h, 'rostering', 'get', path, token);
  const schemaOf = (path: string, status = 200) => responseSchemaOf('rostering', 'GET', `/${path}`, status) as string;

  describe('the same records as 1.1, in the 1.2 shapes', () => {
    it.each(COLLECTION_CASES)('$op', async ({ path, key }) => {
      const [a, b] = [
        await h.get(`${PREFIX}/${path}?limit=1000`, v11).expect(200),
        await get12(`${path}?limit=1000`).expect(200),
      ];
      expect(Object.keys(b.body)).toEqual([key]);
      expect(ids(b.body[key])).toEqual(ids(a.body[key]));
      expect(b.headers['x-total-count']).toBe(a.headers['x-total-count']);
      expectV1p2('rostering', schemaOf(path), b.body);
      expect(b.body.statusInfoSet).toBeUndefined();
    });

    it.each(SINGLE_CASES)('$op', async ({ path, key, id, wrongKind }) => {
      const res = await get12(`${path}/${encodeURIComponent(id)}`).expect(200);
      expect(Object.keys(res.body)).toEqual([key]);
      expect(res.body[key].sourcedId).toBe(id);
      expectV1p2('rostering', schemaOf(`${path}/x`), res.body);
      const unknown = await get12(`${path}/NOPE`);
      expectV1p2Error(unknown, 'rostering', 404, 'unknownobject');
      if (wrongKind) expectV1p2Error(await get12(`${path}/${wrongKind}`), 'rostering', 404, 'unknownobject');
    });
  });

  describe('users: roles and primaryOrg from the 1.1 role and orgs', () => {
    it('derives one primary role per org, primaryOrg = the first org, administrators by org type', async () => {
      const user = async (id: string) => (await get12(`users/${id}`).expect(200)).body.user as Json;
      const org = (id: string) => ({ href: `${V1P2_HREF.rostering}/orgs/${id}`, sourcedId: id, type: 'org' });
      expect(await user('usr-a-01')).toMatchObject({
        roles: [{ roleType: 'primary', role: 'districtAdministrator', org: org('org-d1') }],
        primaryOrg: org('org-d1'),
      });
      expect((await user('usr-t-01')).roles).toEqual([{ roleType: 'primary', role: 'teacher', org: org('org-s1') }]);
      expect((await user('usr-x-01')).roles).toEqual([{ roleType: 'primary', role: 'aide', org: org('org-s2') }]);
      const one = await user('usr-t-01');
      expect(one).not.toHaveProperty('role');
      expect(one).not.toHaveProperty('orgs');
      expect(one).not.toHaveProperty('password');
      // …and 1.1 never shows the 1.2 fields.
      const old = (await h.get(`${PREFIX}/users/usr-t-01`, v11).expect(200)).body.user;
      expect(old).toMatchObject({ role: 'teacher', orgs: [{ sourcedId: 'org-s1' }] });
      for (const field of ['roles', 'primaryOrg', 'userProfiles', 'pronouns', 'userMasterIdentifier'])
        expect(old).not.toHaveProperty(field);
    });

    it('filters on roles as 1.1 filters on role and orgs', async () => {
      const same = async (filter12: string, filter11: string, path = 'users') => {
        const a = ids(
          (await h.get(`${PREFIX}/${path}?limit=1000&filter=${encodeURIComponent(filter11)}`, v11).expect(200)).body
            .users,
        );
        const b = ids(
          (await get12(`${path}?limit=1000&filter=${encodeURIComponent(filter12)}`).expect(200)).body.users,
        );
        expect(b).toEqual(a);
        return b;
      };
      expect(await same("roles.role='teacher'", "role='teacher'")).toHaveLength(3);
      expect(await same("roles.org.sourcedId='org-s2'", "orgs.sourcedId='org-s2'")).not.toHaveLength(0);
      expect(
        await same("roles.org='org-s1' AND roles.role='student'", "orgs.sourcedId='org-s1' AND role='student'"),
      ).toHaveLength(14);
      expect(await same("roles.role='districtAdministrator'", "role='administrator'")).toEqual(['usr-a-01']);
      expect(await same(`roles.org.href='${V1P2_HREF.rostering}/orgs/org-d1'`, "orgs.sourcedId='org-d1'")).toContain(
        'usr-a-01',
      );
      expect(await same("roles.roleType='secondary'", "role='wizard'")).toEqual([]);
      // 1.2 has no `role` field on users: 400, not an empty page.
      expectV1p2Error(
        await get12(`users?filter=${encodeURIComponent("role='teacher'")}`),
        'rostering',
        400,
        'invalid_filter_field',
        'filter',
      );
    });

    it('selects 1.2 fields with fields=', async () => {
      const res = await get12('users/usr-t-01?fields=sourcedId,roles,primaryOrg').expect(200);
      expect(Object.keys(res.body.user)).toEqual(['sourcedId', 'roles', 'primaryOrg']);
      expectV1p2('rostering', 'SingleUserDType', res.body, { fields: ['sourcedId', 'roles', 'primaryOrg'] });
    });
  });

  describe('one output format: ISO 8601 and string booleans, whatever the deployment says for 1.1', () => {
    it('prints dates and booleans the 1.2 way', async () => {
      const enr = (await get12('enrollments/enr-alg-1-t-01').expect(200)).body.enrollment;
      expect(enr).toMatchObject({ primary: 'true', beginDate: '2023-08-15', role: 'teacher' });
      expect(enr.dateLastModified).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);
      const old = (await h.get(`${PREFIX}/enrollments/enr-alg-1-t-01`, v11).expect(200)).body.enrollment;
      expect(old).toMatchObject({ primary: true, beginDate: '20230815' });
      expect((await get12('users/usr-s-07').expect(200)).body.user.enabledUser).toBe('false');
    });
  });

  describe('paging: a limit above the maximum is served as pages of 1000, never a 400', () => {
    it('honours limit=10000 with correct links', async () => {
      const all = await get12('users?limit=10000').expect(200);
      const total = Number(all.headers['x-total-count']);
      expect(all.body.users).toHaveLength(total);
      const links = parseLinks(all.headers['link']);
      expect(links.first?.searchParams.get('limit')).toBe('1000');
      expect(links.next).toBeUndefined();
      expect(`${links.first?.origin}${links.first?.pathname}`).toBe(`${V1P2_HREF.rostering}/users`);
    });

    it('pages with next/prev/last on the 1.2 root', async () => {
      const seen: string[] = [];
      let url: string | undefined = `${V1P2.rostering}/students?limit=7`;
      let total = 0;
      while (url) {
        const res: Response = await h.get(url, v12).expect(200);
        total = Number(res.headers['x-total-count']);
        seen.push(...ids(res.body.users));
        const next = parseLinks(res.headers['link']).next;
        url = next ? `${next.pathname}${next.search}` : undefined;
      }
      expect(seen).toHaveLength(total);
      expect(new Set(seen).size).toBe(total);
    });
  });

  describe('strict query parameters (a 1.2 success body has no room for warnings)', () => {
    it.each([
      ['users?fields=sourcedId,nickname', 400, 'invalid_selection_field', 'fields'],
      ['users?sort=nickname', 400, 'invaliddata', 'sort'],
      ['users?orderBy=sideways', 400, 'invaliddata', 'orderBy'],
      ["users?filter=nickname='x'", 400, 'invalid_filter_field', 'filter'],
      ["users?filter=dateLastModified>'yesterday'", 400, 'invalid_filter_field', 'filter'],
      ['users?limit=0', 400, 'invaliddata', 'limit'],
      ['users?limit=abc', 400, 'invaliddata', 'limit'],
      ['users?offset=-1', 400, 'invaliddata', 'offset'],
      ['users/usr-t-01?fields=shoeSize', 400, 'invalid_selection_field', 'fields'],
    ] as const)('%s → %i %s', async (path, status, minor, field) => {
      expectV1p2Error(await get12(path), 'rostering', status, minor, field);
    });

    it("takes Google's un-encoded e-mail filter", async () => {
      const res = await h
        .get(`${V1P2.rostering}/teachers?filter=email='ada@riverside.example'&limit=10000`, v12)
        .expect(200);
      expect(res.body.users.map((u: Json) => [u.sourcedId, u.email])).toEqual([['usr-t-01', 'ada@riverside.example']]);
      const active = await get12(
        `teachers/usr-t-01/classes?limit=10000&filter=${encodeURIComponent("status='active'")}`,
      ).expect(200);
      expect(active.body.classes[0]).toMatchObject({
        school: { sourcedId: 'org-s1' },
        terms: [{ sourcedId: 'as-t1', type: 'academicSession' }],
      });
    });
  });

  describe('relationship reads: an unknown or invisible parent is a 404; a known one with nothing is 200, empty', () => {
    it.each([
      'schools/NOPE/courses',
      'schools/org-d1/classes',
      'schools/org-b1/students',
      'schools/org-s1/classes/NOPE/students',
      'terms/NOPE/classes',
      'terms/as-gp1/gradingPeriods',
      'courses/NOPE/classes',
      'students/usr-t-01/classes',
      'teachers/NOPE/classes',
      'users/NOPE/classes',
      'classes/NOPE/students',
      'classes/NOPE/teachers',
    ])('%s', async (path) => {
      expectV1p2Error(await get12(path), 'rostering', 404, 'unknownobject');
    });

    it('keeps 200 with an empty page for a known parent without members, and for 1.1', async () => {
      expect((await get12('classes/cls-art-7/teachers').expect(200)).body).toEqual({ users: [] });
      expect((await h.get(`${PREFIX}/terms/NOPE/classes`, v11).expect(200)).body).toEqual({ classes: [] });
    });
  });

  describe('access', () => {
    it('answers 401 without or with a bad token, 403 to v1.1 scopes and to a core-only token on relationship reads', async () => {
      expectV1p2Error(await get12('users', ''), 'rostering', 401, 'unauthorisedrequest');
      expectV1p2Error(await get12('users', 'not-a-token'), 'rostering', 401, 'unauthorisedrequest');
      expectV1p2Error(await get12('users', v11), 'rostering', 403, 'forbidden');
      const core = await h.token(D, [SCOPE_V1P2.rosterCore]);
      await get12('users', core).expect(200);
      expectV1p2Error(await get12('classes/cls-alg-1/students', core), 'rostering', 403, 'forbidden');
      expectV1p2Error(await get12('demographics', core), 'rostering', 403, 'forbidden');
      // …and a 1.2 token opens nothing under 1.1.
      expect((await h.get(`${PREFIX}/users`, v12)).status).toBe(403);
    });

    it("answers another tenant's ids exactly like unknown ids", async () => {
      const school = await h.token(S, [SCOPE_V1P2.roster]);
      const other = await get12('users/usr-t-01', school);
      const unknown = await get12('users/NOPE', school);
      expectV1p2Error(other, 'rostering', 404, 'unknownobject');
      expect(other.body.imsx_description.replace('usr-t-01', 'X')).toBe(
        unknown.body.imsx_description.replace('NOPE', 'X'),
      );
      expectV1p2Error(await get12('classes/cls-alg-1/students', school), 'rostering', 404, 'unknownobject');
    });

    it('answers unknown paths 404 and other methods 405 with Allow, in the 1.2 error body', async () => {
      expectV1p2Error(await get12('nothing/here'), 'rostering', 404, 'unknownobject');
      const put = await v1p2(h, 'rostering', 'put', 'users/usr-t-01', v12, { user: {} });
      expect(put.status).toBe(405);
      expect(put.headers['allow']).toBe('GET, HEAD');
      expect(put.body).toMatchObject({ imsx_codeMajor: 'unsupported', imsx_severity: 'error' });
      expectV1p2('rostering', 'imsx_StatusInfoDType', put.body);
    });
  });
});
