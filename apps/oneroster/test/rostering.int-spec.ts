import { RosterModel, byteOrder } from './support/expected';
import { HREF_ROOT, PREFIX, RosterHarness, SCOPE, type TenantSetup } from './support/harness';
import { expectImsxError, expectImsxWarning, parseLinks } from './support/imsx';
import { loadFixture } from './support/load';
import { COLLECTION_CASES, EMPTY_CASES, SINGLE_CASES } from './support/operations';
import { districtFixture, schoolFixture } from './support/roster-fixture';

const COMPACT_DATETIME = /^\d{8}T\d{6}\.\d{3}Z$/;
const ISO_DATETIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

describe('OneRoster rostering reads', () => {
  const h = new RosterHarness();
  const district = new RosterModel(districtFixture());
  const school = new RosterModel(schoolFixture());
  let D: TenantSetup;
  let S: TenantSetup;
  let token: string;
  let schoolToken: string;

  beforeAll(async () => {
    await h.start();
    D = await h.tenant({ rootOrg: 'org-d1' });
    S = await h.tenant({ rootOrg: 'org-b1' });
    await loadFixture(h, D, district.fixture);
    await loadFixture(h, S, school.fixture);
    token = await h.token(D, [SCOPE.roster, SCOPE.demographics]);
    schoolToken = await h.token(S, [SCOPE.core, SCOPE.demographics]);
  });

  afterAll(() => h.stop());

  /** Every page of a collection, following `next` links; checks the headers on the way. */
  async function walk(path: string, tok = token): Promise<{ ids: string[]; total: number; pages: number }> {
    const ids: string[] = [];
    let url: string | undefined = path;
    let total = -1;
    let pages = 0;
    while (url) {
      const res = await h.get(url, tok).expect(200);
      const key = Object.keys(res.body).find((k) => k !== 'statusInfoSet') as string;
      const count = Number(res.headers['x-total-count']);
      if (total === -1) total = count;
      expect(count).toBe(total);
      ids.push(...res.body[key].map((o: { sourcedId: string }) => o.sourcedId));
      const links = parseLinks(res.headers['link']);
      expect(links.first?.searchParams.get('offset')).toBe('0');
      const limit = Number(links.first?.searchParams.get('limit'));
      expect(Number(links.last?.searchParams.get('offset'))).toBe(Math.floor(Math.max(total - 1, 0) / limit) * limit);
      pages++;
      url = links.next ? `${links.next.pathname}${links.next.search}` : undefined;
    }
    return { ids, total, pages };
  }

  describe('every collection returns exactly the expected records under the right key', () => {
    it.each(COLLECTION_CASES)('$op $path', async ({ op, path, key, ids }) => {
      const expected = district.expected(op, ids);
      expect(expected.length).toBeGreaterThan(0);
      const res = await h.get(`${path}?limit=1000`, token).expect(200);
      expect(Object.keys(res.body)).toEqual([key]);
      expect(res.body[key].map((o: { sourcedId: string }) => o.sourcedId)).toEqual(expected);
      expect(res.headers['x-total-count']).toBe(String(expected.length));
      expect(res.headers['content-type']).toMatch(/^application\/json; charset=utf-8/);
    });

    it.each(EMPTY_CASES)('$op $path is 200 with an empty collection', async ({ path, key }) => {
      const res = await h.get(path, token).expect(200);
      expect(res.body).toEqual({ [key]: [] });
      expect(res.headers['x-total-count']).toBe('0');
    });
  });

  describe('single objects', () => {
    it.each(SINGLE_CASES)('$op $path/$id', async ({ path, key, id, wrongKind }) => {
      const res = await h.get(`${path}/${id}`, token).expect(200);
      expect(Object.keys(res.body)).toEqual([key]);
      expect(res.body[key].sourcedId).toBe(id);
      expect(res.headers['x-total-count']).toBe('1');
      expectImsxError(await h.get(`${path}/no-such-id`, token), 404, 'unknownobject');
      if (wrongKind) expectImsxError(await h.get(`${path}/${wrongKind}`, token), 404, 'unknownobject');
    });

    it('renders a class with GUIDRefs, lists and no empty values', async () => {
      const res = await h.get('classes/cls-alg-2', token).expect(200);
      const root = HREF_ROOT;
      expect(res.body.class).toEqual({
        sourcedId: 'cls-alg-2',
        status: 'active',
        dateLastModified: expect.stringMatching(COMPACT_DATETIME),
        title: 'Algebra I - P2',
        classCode: 'ALG1-02',
        classType: 'scheduled',
        location: 'B-104',
        grades: ['09'],
        subjects: ['Mathematics'],
        course: { href: `${root}/courses/crs-alg`, sourcedId: 'crs-alg', type: 'course' },
        school: { href: `${root}/orgs/org-s1`, sourcedId: 'org-s1', type: 'org' },
        terms: [
          { href: `${root}/academicSessions/as-t1`, sourcedId: 'as-t1', type: 'academicSession' },
          { href: `${root}/academicSessions/as-t2`, sourcedId: 'as-t2', type: 'academicSession' },
        ],
        subjectCodes: ['02052'],
        periods: ['2', '3'],
      });
      const sparse = (await h.get('classes/cls-eng-7a', token).expect(200)).body.class;
      expect(Object.keys(sparse).sort()).toEqual(
        ['classType', 'course', 'dateLastModified', 'grades', 'school', 'sourcedId', 'status', 'terms', 'title'].sort(),
      );
    });

    it('renders users with userIds, agents and orgs, never a password', async () => {
      const ada = (await h.get('users/usr-t-01', token).expect(200)).body.user;
      expect(ada).toMatchObject({
        username: 'ada.lovelace',
        enabledUser: 'true',
        givenName: 'Ada',
        familyName: 'Lovelace',
        role: 'teacher',
        identifier: 'T-01',
        email: 'ada@riverside.example',
        phone: '+1 555 0100',
        userIds: [
          { type: 'LDAP', identifier: 'alovelace' },
          { type: 'SIS', identifier: 'T-0001' },
        ],
        orgs: [
          { sourcedId: 'org-s1', type: 'org', href: expect.stringMatching(/\/ims\/oneroster\/v1p1\/orgs\/org-s1$/) },
        ],
      });
      expect(ada).not.toHaveProperty('password');
      expect(ada).not.toHaveProperty('agents');
      expect(ada).not.toHaveProperty('middleName');
      const parent = (await h.get('users/usr-p-01', token).expect(200)).body.user;
      expect(parent.agents.map((a: { sourcedId: string; type: string }) => [a.sourcedId, a.type])).toEqual([
        ['usr-s-01', 'user'],
        ['usr-s-02', 'user'],
      ]);
      expect(parent.enabledUser).toBe('false');
      expect(parent).not.toHaveProperty('metadata');
      const flagged = (await h.get('users/usr-s-10', token).expect(200)).body.user;
      expect(flagged.metadata).toEqual({ 'microsoft.userFlags': 'freeLunch,ELL' });
      expect(Object.keys(flagged).pop()).toBe('metadata');
    });

    it('derives children of orgs and sessions, and renders parents', async () => {
      const d1 = (await h.get('orgs/org-d1', token).expect(200)).body.org;
      expect(d1).not.toHaveProperty('parent');
      expect(d1.children.map((c: { sourcedId: string }) => c.sourcedId)).toEqual(['org-s1', 'org-s2', 'org-s9']);
      expect(d1.children[0].type).toBe('org');
      const t1 = (await h.get('terms/as-t1', token).expect(200)).body.academicSession;
      expect(t1).toMatchObject({
        title: 'Fall 2023',
        type: 'term',
        startDate: '20230815',
        endDate: '20231220',
        schoolYear: '2024',
      });
      expect(t1.parent).toMatchObject({ sourcedId: 'as-y2024', type: 'academicSession' });
      expect(t1.children.map((c: { sourcedId: string }) => c.sourcedId)).toEqual(['as-gp1', 'as-gp2']);
      const sci = (await h.get('orgs/org-s1-sci', token).expect(200)).body.org;
      expect(sci).not.toHaveProperty('identifier');
      expect(sci).not.toHaveProperty('children');
    });

    it('renders enrollments and demographics', async () => {
      const e = (await h.get('enrollments/enr-bio-1-t-02', token).expect(200)).body.enrollment;
      expect(e).toMatchObject({ role: 'teacher', primary: 'true', beginDate: '20240108', endDate: '20240630' });
      expect(e.user).toMatchObject({ sourcedId: 'usr-t-02', type: 'user' });
      expect(e.class).toMatchObject({ sourcedId: 'cls-bio-1', type: 'class' });
      expect(e.school).toMatchObject({ sourcedId: 'org-s1', type: 'org' });
      const noPrimary = (await h.get('enrollments/enr-hr-7-s-15', token).expect(200)).body.enrollment;
      expect(noPrimary).not.toHaveProperty('primary');
      const demo = (await h.get('demographics/usr-s-03', token).expect(200)).body.demographics;
      expect(demo).toMatchObject({
        birthDate: '20080313',
        sex: 'male',
        blackOrAfricanAmerican: 'true',
        white: 'false',
        countryOfBirthCode: 'US',
      });
      expect(demo).not.toHaveProperty('nativeHawaiianOrOtherPacificIslander');
    });

    it('escapes ids in hrefs so that every href leads back to its object', async () => {
      const cls = (await h.get('classes/cls-art-7', token).expect(200)).body.class;
      expect(cls.course).toEqual({
        href: `${HREF_ROOT}/courses/crs-art%201%2F2`,
        sourcedId: 'crs-art 1/2',
        type: 'course',
      });
      const course = (await h.get(new URL(cls.course.href).pathname, token).expect(200)).body.course;
      expect(course).toMatchObject({ sourcedId: 'crs-art 1/2', title: 'Art "Studio" 1/2' });
      const byHref = await h
        .get(`classes?filter=${encodeURIComponent(`course.href='${cls.course.href}'`)}`, token)
        .expect(200);
      expect(byHref.body.classes.map((c: { sourcedId: string }) => c.sourcedId)).toEqual(['cls-art-7']);
      const forCourse = await h.get(`courses/${encodeURIComponent('crs-art 1/2')}/classes`, token).expect(200);
      expect(forCourse.body.classes.map((c: { sourcedId: string }) => c.sourcedId)).toEqual(['cls-art-7']);
    });

    it('keeps tombstoned records visible with status tobedeleted', async () => {
      expect((await h.get('classes/cls-old', token).expect(200)).body.class.status).toBe('tobedeleted');
      expect((await h.get('students/usr-s-24', token).expect(200)).body.user.status).toBe('tobedeleted');
      const active = await h.get(`users?limit=1000&filter=${encodeURIComponent("status='active'")}`, token).expect(200);
      expect(active.body.users.map((u: { sourcedId: string }) => u.sourcedId)).toEqual(
        district.ids('users', (r) => r.active),
      );
    });
  });

  describe('paging', () => {
    it.each([1, 3, 7, 100])(
      'walks every page of /users with limit %i: no repeats, nothing missed, right links',
      async (limit) => {
        const { ids, total, pages } = await walk(`users?limit=${limit}`);
        expect(ids).toEqual(district.ids('users'));
        expect(total).toBe(ids.length);
        expect(pages).toBe(Math.ceil(total / limit));
      },
    );

    it('walks /students descending and filtered /users sorted by familyName', async () => {
      expect((await walk('students?limit=4&orderBy=desc')).ids).toEqual(district.expected('getAllStudents').reverse());
      const sorted = await walk(`users?limit=5&data_field=familyName&filter=${encodeURIComponent("role='student'")}`);
      expect(new Set(sorted.ids).size).toBe(sorted.ids.length);
      expect([...sorted.ids].sort(byteOrder)).toEqual(district.expected('getAllStudents'));
    });

    it('answers offsets past the end with an empty page and correct links', async () => {
      const total = district.ids('users').length;
      const res = await h.get(`users?limit=10&offset=${total + 50}`, token).expect(200);
      expect(res.body.users).toEqual([]);
      expect(res.headers['x-total-count']).toBe(String(total));
      const links = parseLinks(res.headers['link']);
      expect(links.next).toBeUndefined();
      expect(links.prev?.searchParams.get('offset')).toBe(String(total + 40));
    });

    it('repeats filter, sort and fields in every link, percent-encoded', async () => {
      const filter = "familyName~'s'";
      const res = await h
        .get(
          `users?limit=2&offset=2&filter=${encodeURIComponent(filter)}&data_field=givenName&orderBy=desc&fields=sourcedId,givenName`,
          token,
        )
        .expect(200);
      const links = parseLinks(res.headers['link']);
      expect(Object.keys(links).sort()).toEqual(['first', 'last', 'next', 'prev']);
      for (const url of Object.values(links)) {
        expect(url.searchParams.get('filter')).toBe(filter);
        expect(url.searchParams.get('data_field')).toBe('givenName');
        expect(url.searchParams.get('orderBy')).toBe('desc');
        expect(url.searchParams.get('fields')).toBe('sourcedId,givenName');
        expect(`${url.origin}${url.pathname}`).toBe(`${HREF_ROOT}/users`);
      }
      expect(res.headers['link']).toContain('filter=familyName~%27s%27');
    });

    // Pages past the first are picked before they are formatted: every field (derived lists
    // such as an org's children included) must be as on one big page.
    it.each([
      ['orgs', `orgs?filter=${encodeURIComponent("status='active'")}&sort=name&orderBy=desc`],
      ['classes', `classes?filter=${encodeURIComponent("status='active'")}&sort=title`],
      ['users', `users?filter=${encodeURIComponent("familyName~'s'")}&sort=familyName&orderBy=desc`],
      ['enrollments', `enrollments?filter=${encodeURIComponent("role='student'")}&sort=beginDate`],
    ])('%s: sorted, filtered pages past the first are exactly the slices of one whole page', async (key, path) => {
      const whole = (await h.get(`${path}&limit=1000`, token).expect(200)).body[key] as unknown[];
      expect(whole.length).toBeGreaterThan(3);
      const paged: unknown[] = [];
      for (let offset = 0; offset < whole.length; offset += 2) {
        paged.push(...((await h.get(`${path}&limit=2&offset=${offset}`, token).expect(200)).body[key] as unknown[]));
      }
      expect(paged).toEqual(whole);
    });
  });

  describe('filters and sorts match a reference computed from the data', () => {
    let everyone: Array<Record<string, unknown>>;
    beforeAll(async () => {
      everyone = (await h.get('users?limit=1000', token).expect(200)).body.users;
    });

    const ids = (list: Array<Record<string, unknown>>) => list.map((u) => u.sourcedId as string);
    const lower = (v: unknown) => String(v ?? '').toLowerCase();
    async function filtered(filter: string, extra = ''): Promise<string[]> {
      const res = await h.get(`users?limit=1000&filter=${encodeURIComponent(filter)}${extra}`, token).expect(200);
      expect(res.headers['x-total-count']).toBe(String(res.body.users.length));
      return ids(res.body.users);
    }

    it.each<[string, (u: Record<string, unknown>) => boolean]>([
      ["familyName='smith'", (u) => lower(u.familyName) === 'smith'],
      ["familyName!='SMITH'", (u) => lower(u.familyName) !== 'smith'],
      ["familyName='O''Brien'", (u) => u.familyName === "O'Brien"],
      ["givenName~'A'", (u) => lower(u.givenName).includes('a')],
      ["givenName>='m'", (u) => lower(u.givenName) >= 'm'],
      ["middleName!='Q'", (u) => lower(u.middleName) !== 'q'],
      ["middleName='Q'", (u) => lower(u.middleName) === 'q'],
      ["email~'students'", (u) => lower(u.email).includes('students')],
      ["email~'%'", () => false],
      ["role='teacher' OR role='aide'", (u) => u.role === 'teacher' || u.role === 'aide'],
      ["role='student' AND enabledUser='false'", (u) => u.role === 'student' && u.enabledUser === 'false'],
      [
        "orgs.sourcedId='org-s2'",
        (u) => (u.orgs as Array<{ sourcedId: string }>).some((o) => o.sourcedId === 'org-s2'),
      ],
      [
        "orgs.sourcedId!='org-s2'",
        (u) => !(u.orgs as Array<{ sourcedId: string }>).some((o) => o.sourcedId === 'org-s2'),
      ],
      [
        "agents.sourcedId='usr-s-02'",
        (u) => ((u.agents as Array<{ sourcedId: string }>) ?? []).some((o) => o.sourcedId === 'usr-s-02'),
      ],
      ["grades='09'", (u) => ((u.grades as string[]) ?? []).includes('09')],
      ["grades!='09'", (u) => !((u.grades as string[]) ?? []).includes('09')],
      [
        "userIds.type='sis'",
        (u) => ((u.userIds as Array<{ type: string }>) ?? []).some((i) => i.type.toLowerCase() === 'sis'),
      ],
      [
        "userIds.identifier~'100'",
        (u) => ((u.userIds as Array<{ identifier: string }>) ?? []).some((i) => i.identifier.includes('100')),
      ],
      ["sourcedId='usr-s-10'", (u) => u.sourcedId === 'usr-s-10'],
      ["sourcedId='USR-S-10'", () => false],
      ["sourcedId<'usr-s-05'", (u) => byteOrder(u.sourcedId as string, 'usr-s-05') < 0],
      ["orgs.type='org'", () => true],
      ["status='tobedeleted'", (u) => u.status === 'tobedeleted'],
      [
        "metadata.microsoft.userFlags~'iep'",
        (u) => lower((u.metadata as Record<string, string> | undefined)?.['microsoft.userFlags']).includes('iep'),
      ],
      [
        "metadata.microsoft.userFlags!='IEP'",
        (u) => (u.metadata as Record<string, string> | undefined)?.['microsoft.userFlags'] !== 'IEP',
      ],
    ])('%s', async (filter, keep) => {
      expect(await filtered(filter)).toEqual(ids(everyone.filter(keep)));
    });

    it('compares dateLastModified as instants in both literal forms', async () => {
      const stamps = everyone.map((u) => u.dateLastModified as string).sort();
      const middle = stamps[Math.floor(stamps.length / 2)] as string;
      const iso = `${middle.slice(0, 4)}-${middle.slice(4, 6)}-${middle.slice(6, 11)}:${middle.slice(11, 13)}:${middle.slice(13)}`;
      const after = await filtered(`dateLastModified>'${iso}'`);
      expect(after).toEqual(ids(everyone.filter((u) => (u.dateLastModified as string) > middle)));
      expect(await filtered(`dateLastModified>'${middle}'`)).toEqual(after);
      expect(await filtered(`dateLastModified<='${iso}'`)).toEqual(
        ids(everyone.filter((u) => (u.dateLastModified as string) <= middle)),
      );
      expect(await filtered("dateLastModified>'2000-01-01'")).toEqual(ids(everyone));
    });

    it.each([
      ['familyName', 'asc'],
      ['givenName', 'desc'],
      ['role', 'asc'],
      ['enabledUser', 'desc'],
      ['middleName', 'asc'],
      ['dateLastModified', 'desc'],
    ])('sorts by %s %s with the sourcedId tie-breaker', async (field, dir) => {
      const res = await h.get(`users?limit=1000&data_field=${field}&orderBy=${dir}`, token).expect(200);
      const sign = dir === 'desc' ? -1 : 1;
      const key = (u: Record<string, unknown>) =>
        u[field] === undefined
          ? undefined
          : field === 'familyName' || field === 'givenName' || field === 'middleName'
            ? lower(u[field])
            : String(u[field]);
      const expected = [...everyone].sort((a, b) => {
        const ka = key(a);
        const kb = key(b);
        if (ka !== kb) {
          if (ka === undefined) return sign; // absent sorts last ascending, first descending
          if (kb === undefined) return -sign;
          return sign * byteOrder(ka, kb);
        }
        return sign * byteOrder(a.sourcedId as string, b.sourcedId as string);
      });
      expect(ids(res.body.users)).toEqual(ids(expected));
      expect(res.body.statusInfoSet).toBeUndefined();
    });

    it('accepts sort as a synonym of data_field, and warns about unknown sort fields', async () => {
      const bySort = await h.get('users?limit=1000&sort=familyName', token).expect(200);
      const byField = await h.get('users?limit=1000&data_field=familyName', token).expect(200);
      expect(ids(bySort.body.users)).toEqual(ids(byField.body.users));
      const unknown = await h.get('users?limit=1000&data_field=nickname', token).expect(200);
      expect(ids(unknown.body.users)).toEqual(ids(everyone));
      expectImsxWarning(unknown.body, 'invalid_sort_field', 'data_field');
    });

    it('filters sub-collections and sorts them', async () => {
      const res = await h
        .get(
          `schools/org-s1/enrollments?limit=1000&filter=${encodeURIComponent("role='teacher'")}&data_field=sourcedId&orderBy=desc`,
          token,
        )
        .expect(200);
      const expected = district
        .expected('getEnrollmentsForSchool', { school_id: 'org-s1' })
        .filter((id) => district.records('enrollments').find((e) => e.id === id)?.row.role === 'teacher');
      expect(res.body.enrollments.map((e: { sourcedId: string }) => e.sourcedId)).toEqual(expected.reverse());
    });

    it('filters on GUIDRef sub-fields and derived children', async () => {
      const classes = await h
        .get(`classes?filter=${encodeURIComponent("school.sourcedId='org-s2' AND terms.sourcedId='as-t2'")}`, token)
        .expect(200);
      expect(classes.body.classes.map((c: { sourcedId: string }) => c.sourcedId)).toEqual(['cls-art-7', 'cls-hr-7']);
      const parents = await h
        .get(`academicSessions?filter=${encodeURIComponent("children.sourcedId='as-gp3'")}`, token)
        .expect(200);
      expect(parents.body.academicSessions.map((c: { sourcedId: string }) => c.sourcedId)).toEqual(['as-t2']);
      const href = `${HREF_ROOT}/orgs/org-s2`;
      const byHref = await h.get(`classes?filter=${encodeURIComponent(`school.href='${href}'`)}`, token).expect(200);
      expect(byHref.body.classes.map((c: { sourcedId: string }) => c.sourcedId)).toEqual([
        'cls-art-7',
        'cls-eng-7a',
        'cls-hr-7',
      ]);
      const dates = await h
        .get(`academicSessions?filter=${encodeURIComponent("startDate>='20240101' AND type='term'")}`, token)
        .expect(200);
      expect(dates.body.academicSessions.map((c: { sourcedId: string }) => c.sourcedId)).toEqual(['as-t2', 'as-t3']);
    });
  });

  describe('values outside an enumeration or true/false (reference §5.3, §10 #4)', () => {
    const f = (filter: string) => `filter=${encodeURIComponent(filter)}`;

    it.each([
      ['users', "status='norecords'", 'users'],
      ['users', "status='NoRecords' AND role='student'", 'users'],
      ['students', "role='wizard'", 'users'],
      ['teachers', "status=''", 'users'],
      ['users', "enabledUser='yes'", 'users'],
      ['users', "orgs.type='school'", 'users'],
      ['classes', "classType='lab'", 'classes'],
      ['schools/org-s1/classes', "classType='Lab' OR status='deleted'", 'classes'],
      ['classes', "school.type='school'", 'classes'],
      ['orgs', "type='campus'", 'orgs'],
      ['schools', "status='norecords'", 'orgs'],
      ['terms', "type='quarter'", 'academicSessions'],
      ['academicSessions', "parent.type='term'", 'academicSessions'],
      ['enrollments', "role='observer'", 'enrollments'],
      ['schools/org-s2/enrollments', "primary='1'", 'enrollments'],
      ['courses', "status='archived'", 'courses'],
      ['demographics', "sex='other'", 'demographics'],
      ['demographics', "white='unknown'", 'demographics'],
      ['classes/cls-hr-7/students', "status='norecords'", 'users'],
      ['users', "status='__proto__'", 'users'],
      ['users', "status='constructor' OR status='toString'", 'users'],
    ])('%s?filter=%s → 200, empty collection, X-Total-Count 0', async (path, filter, key) => {
      for (const limit of [2, 1000]) {
        const res = await h.get(`${path}?limit=${limit}&${f(filter)}`, token).expect(200);
        expect(res.body).toEqual({ [key]: [] });
        expect(res.headers['x-total-count']).toBe('0');
        expect(res.headers['x-count']).toBe('0');
        const links = parseLinks(res.headers['link']);
        expect([links.first?.searchParams.get('offset'), links.last?.searchParams.get('offset'), links.next]).toEqual([
          '0',
          '0',
          undefined,
        ]);
      }
    });

    /** Every record of a collection, then the filtered ones: ids and total. */
    async function compare(
      path: string,
      key: string,
      filter: string,
      keep: (o: Record<string, unknown>) => boolean,
    ): Promise<void> {
      const all: Array<Record<string, unknown>> = (await h.get(`${path}?limit=1000`, token).expect(200)).body[key];
      const expected = all.filter(keep).map((o) => o.sourcedId);
      expect(all.length).toBeGreaterThan(0);
      const res = await h.get(`${path}?limit=1000&${f(filter)}`, token).expect(200);
      expect(res.body[key].map((o: Record<string, unknown>) => o.sourcedId)).toEqual(expected);
      expect(res.headers['x-total-count']).toBe(String(expected.length));
      // A small page: the total then comes from the count (or the status histogram), not from the page.
      const small = await h.get(`${path}?limit=2&${f(filter)}`, token).expect(200);
      expect(small.headers['x-total-count']).toBe(String(expected.length));
    }

    it.each<[string, string, string, (o: Record<string, unknown>) => boolean]>([
      ['users', "status!='norecords'", 'users', () => true],
      ['users', "status!='NoRecords' AND dateLastModified>'2000-01-01'", 'users', () => true],
      ['users', "role!='wizard' AND status='active'", 'users', (u) => u.status === 'active'],
      ['users', "enabledUser!='yes'", 'users', () => true],
      ['students', "status='norecords' OR enabledUser='false'", 'users', (u) => u.enabledUser === 'false'],
      ['classes', "classType!='lab'", 'classes', () => true],
      ['orgs', "type!='campus'", 'orgs', () => true],
      ['enrollments', "role!='observer'", 'enrollments', () => true],
      ['enrollments', "primary!='1'", 'enrollments', () => true],
      ['enrollments', "primary!='true'", 'enrollments', (e) => e.primary !== 'true'],
      ['classes', "school.type!='school'", 'classes', () => true],
      // Absent values match != as they do for any value (NULL-safe negation): every record comes back.
      ['demographics', "sex!='other'", 'demographics', () => true],
      ['demographics', "blackOrAfricanAmerican!='maybe'", 'demographics', () => true],
      ['demographics', "blackOrAfricanAmerican!='true'", 'demographics', (d) => d.blackOrAfricanAmerican !== 'true'],
    ])('%s?filter=%s matches what the collection says', async (path, filter, key, keep) => {
      await compare(path, key, filter, keep);
    });

    it.each<[string, string, string, (o: Record<string, unknown>) => boolean]>([
      ['users', "role>'parent'", 'users', (u) => String(u.role) > 'parent'],
      ['users', "role<='GUARDIAN'", 'users', (u) => String(u.role) <= 'guardian'],
      ['users', "role>='s'", 'users', (u) => String(u.role) >= 's'],
      ['users', "status~'DEL'", 'users', (u) => String(u.status).includes('del')],
      ['academicSessions', "type>'schoolyear'", 'academicSessions', (s) => String(s.type).toLowerCase() > 'schoolyear'],
      ['academicSessions', "type~'period'", 'academicSessions', (s) => String(s.type).toLowerCase().includes('period')],
      [
        'classes',
        "classType<'i' AND status='active'",
        'classes',
        (c) => String(c.classType) < 'i' && c.status === 'active',
      ],
      ['classes', "school.type>='org'", 'classes', () => true],
      ['classes', "school.type<'org'", 'classes', () => false],
    ])('orders and ~-matches enums as text: %s?filter=%s', async (path, filter, key, keep) => {
      await compare(path, key, filter, keep);
    });

    it.each([
      ['users', "nickname='norecords'"],
      ['users', 'status=norecords'],
      ['users', "status='norecords"],
      ['users', "enabledUser>'true'"],
      ['users', "dateLastModified>'yesterday'"],
      ['users', "dateLastModified<'2024-13-01'"],
      ['demographics', "birthDate='17/05/2010'"],
      ['academicSessions', "schoolYear='2023-24'"],
      ['orgs', "role='student'"],
    ])('%s?filter=%s is still 400 invalid_filter_field', async (path, filter) => {
      expectImsxError(await h.get(`${path}?${f(filter)}`, token), 400, 'invalid_filter_field', 'filter');
    });
  });

  describe('field selection', () => {
    it('returns only the selected fields, in order, on collections and single objects', async () => {
      const res = await h.get('users?limit=3&fields=familyName,sourcedId,middleName', token).expect(200);
      expect(res.body.users).toHaveLength(3);
      for (const u of res.body.users) {
        expect(Object.keys(u).filter((k) => k !== 'middleName')).toEqual(['familyName', 'sourcedId']);
      }
      expect(res.body.statusInfoSet).toBeUndefined();
      const one = await h.get('classes/cls-alg-1?fields=title,terms', token).expect(200);
      expect(Object.keys(one.body.class)).toEqual(['title', 'terms']);
    });

    it('warns about unknown fields but answers with the known ones, counts unchanged', async () => {
      const res = await h.get('users?limit=2&fields=sourcedId,shoeSize', token).expect(200);
      expect(res.body.users).toEqual([{ sourcedId: expect.any(String) }, { sourcedId: expect.any(String) }]);
      expectImsxWarning(res.body, 'invalid_selection_field', 'fields');
      expect(res.headers['x-total-count']).toBe(String(district.ids('users').length));
      const single = await h.get('users/usr-t-01?fields=nope', token).expect(200);
      expect(single.body.user.sourcedId).toBe('usr-t-01');
      expectImsxWarning(single.body, 'invalid_selection_field');
    });
  });

  describe('tenancy', () => {
    it('never shows another tenant\u2019s records', async () => {
      const mine = (await h.get('users/usr-s-01', token).expect(200)).body.user;
      const theirs = (await h.get('users/usr-s-01', schoolToken).expect(200)).body.user;
      expect(mine.givenName).toBe('Ava');
      expect(theirs.givenName).toBe('Oscar');
      expectImsxError(await h.get('users/bv-t-01', token), 404, 'unknownobject');
      expectImsxError(await h.get('classes/cls-alg-1', schoolToken), 404, 'unknownobject');
      expectImsxError(await h.get('orgs/org-b1', token), 404, 'unknownobject');
      expect((await h.get('classes/bv-cls-1/students', token).expect(200)).body.users).toEqual([]);
      expect((await h.get('schools/org-b1/classes', token).expect(200)).body.classes).toEqual([]);
      const all = (await h.get('users?limit=1000', schoolToken).expect(200)).body.users.map(
        (u: { sourcedId: string }) => u.sourcedId,
      );
      expect(all).toEqual(school.ids('users'));
    });

    it('gives a school-level tenant the same data for its school as unscoped', async () => {
      for (const [scoped, unscoped] of [
        ['schools/org-b1/classes', 'classes'],
        ['schools/org-b1/courses', 'courses'],
        ['schools/org-b1/enrollments', 'enrollments'],
        ['schools/org-b1/students', 'students'],
        ['schools/org-b1/teachers', 'teachers'],
        ['schools/org-b1/terms', 'terms'],
      ]) {
        const a = await h.get(scoped as string, schoolToken).expect(200);
        const b = await h.get(unscoped as string, schoolToken).expect(200);
        expect(a.body).toEqual(b.body);
        expect(a.headers['x-total-count']).toBe(b.headers['x-total-count']);
      }
      expect(
        (await h.get('schools', schoolToken).expect(200)).body.orgs.map((o: { sourcedId: string }) => o.sourcedId),
      ).toEqual(['org-b1']);
    });

    it('gives an enterprise tenant every school of its tree, and only that school\u2019s data per school', async () => {
      expect(
        (await h.get('schools', token).expect(200)).body.orgs.map((o: { sourcedId: string }) => o.sourcedId),
      ).toEqual(['org-s1', 'org-s2', 'org-s9']);
      const s2 = (await h.get('schools/org-s2/classes', token).expect(200)).body.classes.map(
        (c: { sourcedId: string }) => c.sourcedId,
      );
      expect(s2).toEqual(['cls-art-7', 'cls-eng-7a', 'cls-hr-7']);
      const all = (await h.get('classes', token).expect(200)).body.classes;
      expect(all.length).toBeGreaterThan(s2.length);
    });

    it('hides orgs outside the tenant\u2019s tree', async () => {
      const narrow = await h.tenant({ rootOrg: 'org-s2' });
      await loadFixture(h, narrow, district.fixture);
      const t = await h.token(narrow);
      expect((await h.get('orgs', t).expect(200)).body.orgs.map((o: { sourcedId: string }) => o.sourcedId)).toEqual([
        'org-s2',
      ]);
      expectImsxError(await h.get('orgs/org-s1', t), 404, 'unknownobject');
      expectImsxError(await h.get('schools/org-s1', t), 404, 'unknownobject');
      expect((await h.get('schools/org-s1/classes', t).expect(200)).body.classes).toEqual([]);
      expect((await h.get('schools/org-s2/classes', t).expect(200)).body.classes).toHaveLength(3);
    });
  });

  describe('output formats', () => {
    it('prints compact dates and string booleans by default', async () => {
      const res = await h.get('enrollments/enr-bio-1-t-02', token).expect(200);
      expect(res.body.enrollment.dateLastModified).toMatch(COMPACT_DATETIME);
      expect(res.body.enrollment.beginDate).toBe('20240108');
      expect(res.body.enrollment.primary).toBe('true');
    });

    it('prints ISO 8601 dates and JSON booleans when the deployment says so', async () => {
      const iso = await h.tenant({
        rootOrg: 'org-d1',
        settings: { onerosterDateFormat: 'iso8601', onerosterBooleans: 'json' },
      });
      await loadFixture(h, iso, district.fixture);
      const t = await h.token(iso, [SCOPE.core, SCOPE.demographics]);
      const e = (await h.get('enrollments/enr-bio-1-t-02', t).expect(200)).body.enrollment;
      expect(e.dateLastModified).toMatch(ISO_DATETIME);
      expect(e.beginDate).toBe('2024-01-08');
      expect(e.primary).toBe(true);
      const term = (await h.get('terms/as-t1', t).expect(200)).body.academicSession;
      expect(term.startDate).toBe('2023-08-15');
      const demo = (await h.get('demographics/usr-s-02', t).expect(200)).body.demographics;
      expect(demo).toMatchObject({ asian: true, white: false, birthDate: '2008-02-12' });
      const user = (await h.get('users/usr-s-07', t).expect(200)).body.user;
      expect(user.enabledUser).toBe(false);
      // Filter literals accept both forms whatever the output form.
      const f = await h.get(`terms?filter=${encodeURIComponent("startDate>'20240101'")}`, t).expect(200);
      expect(f.body.academicSessions.map((s: { sourcedId: string }) => s.sourcedId)).toEqual(['as-t2', 'as-t3']);
    });
  });

  describe('query errors', () => {
    it.each([
      ['limit=0', 'invaliddata', 'limit'],
      ['limit=1001', 'invaliddata', 'limit'],
      ['limit=abc', 'invaliddata', 'limit'],
      ['limit=-5', 'invaliddata', 'limit'],
      ['offset=-1', 'invaliddata', 'offset'],
      ['offset=abc', 'invaliddata', 'offset'],
      ['limit=10&limit=20', 'invaliddata', 'limit'],
      [`filter=${encodeURIComponent("nickname='x'")}`, 'invalid_filter_field', 'filter'],
      [`filter=${encodeURIComponent('familyName=smith')}`, 'invalid_filter_field', 'filter'],
      [
        `filter=${encodeURIComponent("role='student' AND role='teacher' AND role='aide'")}`,
        'invalid_filter_field',
        'filter',
      ],
      [`filter=${encodeURIComponent("dateLastModified>'yesterday'")}`, 'invalid_filter_field', 'filter'],
      [`filter=${encodeURIComponent("password='x'")}`, 'invalid_filter_field', 'filter'],
    ])('%s → 400 %s', async (query, code, param) => {
      expectImsxError(await h.get(`users?${query}`, token), 400, code, param);
      expectImsxError(await h.get(`schools/org-s1/students?${query}`, token), 400, code, param);
    });

    it('accepts limit=1000 and ignores unknown parameters', async () => {
      await h.get('users?limit=1000&continuationToken=x&limit%20=3', token).expect(200);
    });

    it('never answers 500 to junk in paths or parameters', async () => {
      for (const path of [
        'users/%00',
        'users/a%00b/classes',
        'users/%FF',
        'schools/%E0%A4%A/classes',
        'classes/%C3%28/students',
        `users/${'x'.repeat(5000)}`,
      ]) {
        const res = await h.get(path, token);
        // Unknown single object → 404, unknown parent → empty collection, undecodable path → 400.
        if (![200, 400, 404].includes(res.status))
          throw new Error(`${path}: ${res.status} ${JSON.stringify(res.body)}`);
        if (res.status === 200) expect(Object.values(res.body)).toEqual([[]]);
        else expect(res.body.statusInfoSet).toBeDefined();
      }
      for (const query of [
        'offset=9007199254740991',
        'offset=99999999999999999999',
        'filter=%00',
        `filter=${encodeURIComponent("familyName='\u0000'")}`,
        'fields=%00',
        'data_field=%00',
        'limit=1&limit=1',
        'filter[a]=b',
      ]) {
        const res = await h.get(`users?${query}`, token);
        if (![200, 400].includes(res.status)) throw new Error(`${query}: ${res.status} ${JSON.stringify(res.body)}`);
      }
    });

    it('ignores collection parameters on single GETs', async () => {
      await h.get('users/usr-t-01?limit=abc&filter=garbage', token).expect(200);
    });
  });

  describe('routes', () => {
    it('tolerates trailing and doubled slashes', async () => {
      expect((await h.get(`${PREFIX}/users/`, token).expect(200)).body.users.length).toBeGreaterThan(0);
      expect((await h.get(`/ims/oneroster//v1p1//users/usr-t-01`, token).expect(200)).body.user.sourcedId).toBe(
        'usr-t-01',
      );
    });

    it('answers non-GET methods with 405 unsupportedoperation', async () => {
      const request = (await import('supertest')).default;
      for (const method of ['post', 'put', 'patch', 'delete'] as const) {
        const res = await request(h.app.getHttpServer())
          [method](`${PREFIX}/users`)
          .set('Authorization', `Bearer ${token}`)
          .send({});
        expectImsxError(res, 405, 'unsupportedoperation');
        expect(res.headers['allow']).toBe('GET, HEAD');
      }
      // Gradebook objects take PUT and DELETE; other methods there, and writes on collections, are 405.
      const patched = await request(h.app.getHttpServer()).patch(`${PREFIX}/lineItems/li-1`).send({});
      expectImsxError(patched, 405, 'unsupportedoperation');
      expect(patched.headers['allow']).toBe('GET, HEAD, PUT, DELETE');
      const posted = await request(h.app.getHttpServer()).post(`${PREFIX}/lineItems`).send({});
      expectImsxError(posted, 405, 'unsupportedoperation');
      expect(posted.headers['allow']).toBe('GET, HEAD');
    });

    it('serves gradebook and resources reads only to their own scopes (403 with roster scopes)', async () => {
      for (const path of [
        'categories',
        'lineItems/li-1',
        'results',
        'resources',
        'classes/cls-alg-1/results',
        'courses/crs-alg/resources',
        'classes/cls-alg-1/students/usr-s-01/results',
      ]) {
        expectImsxError(await h.get(path, token), 403, 'forbidden');
      }
      expectImsxError(await h.get('nothing-here', token), 404, 'unknownobject');
      expectImsxError(await h.get('lineItems/li-1/results', token), 404, 'unknownobject');
    });
  });
});
