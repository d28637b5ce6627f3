import { clonePackage, schoolPackage, setMode, writeFolder, type CsvPackage } from './support/csv-package';
import { CASE_ID, PROFILE_PLAIN, PROFILE_URI, v1p2Delta, v1p2Package } from './support/csv-package-v1p2';
import { PREFIX, RosterHarness, SCOPE, type TenantSetup } from './support/harness';
import { importFolder } from './support/load';
import { SCOPE_V1P2, V1P2_HREF, v1p2 } from './support/v1p2';
import { expectV1p2, type V1p2Service } from './support/v1p2/oas-schemas';

type Json = ReturnType<typeof JSON.parse>;
const ref = (service: keyof typeof V1P2_HREF, collection: string, type: string) => (id: string) => ({
  href: `${V1P2_HREF[service]}/${collection}/${encodeURIComponent(id)}`,
  sourcedId: id,
  type,
});
const org = ref('rostering', 'orgs', 'org');
const ids = (list: Array<{ sourcedId: string }>) => list.map((o) => o.sourcedId);
const ISO_DATETIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

/**
 * CSV packages and the OneRoster 1.2 view (one store, two views): a 1.1 package fills the 1.2
 * fields of its users (roles, primary org) as it imports them.
 */
describe('CSV import and OneRoster 1.2', () => {
  const h = new RosterHarness();

  beforeAll(() => h.start());
  afterAll(() => h.stop());

  const run = (t: TenantSetup, p: CsvPackage) => importFolder(h, t.tenantId, writeFolder(p));
  const user12 = async (t: TenantSetup, id: string): Promise<Json> => {
    const res = await v1p2(h, 'rostering', 'get', `users/${id}`, await h.token(t, [SCOPE_V1P2.roster])).expect(200);
    expectV1p2('rostering', 'SingleUserDType', res.body);
    return res.body.user;
  };
  const user11 = async (t: TenantSetup, id: string): Promise<Json> =>
    (await h.get(`${PREFIX}/users/${id}`, await h.token(t, [SCOPE.roster])).expect(200)).body.user;
  const modified = async (t: TenantSetup, table: string, id: string): Promise<string> =>
    (
      await h.ds.query(`SELECT date_last_modified::text AS m FROM ${table} WHERE tenant_id = $1 AND sourced_id = $2`, [
        t.tenantId,
        id,
      ])
    )[0].m;

  describe('1.1 packages fill the 1.2 view of their users', () => {
    /** schoolPackage() plus an administrator of the district and a school. */
    const withAdmin = (): CsvPackage => {
      const p = schoolPackage();
      p.files['users.csv']!.rows.push({
        sourcedId: 'usr-a1',
        enabledUser: 'true',
        orgSourcedIds: 'org-d,org-s1',
        role: 'administrator',
        username: 'ada.admin',
        givenName: 'Ada',
        familyName: 'Park',
      });
      return p;
    };

    it('answers roles (one primary role per org, administrators by org type) and primaryOrg (the first org)', async () => {
      const t = await h.tenant();
      expect((await run(t, withAdmin())).status).toBe('succeeded');
      expect(await user12(t, 'usr-a1')).toMatchObject({
        roles: [
          { roleType: 'primary', role: 'districtAdministrator', org: org('org-d') },
          { roleType: 'primary', role: 'siteAdministrator', org: org('org-s1') },
        ],
        primaryOrg: org('org-d'),
      });
      const teacher = await user12(t, 'usr-t1');
      expect(teacher.roles).toEqual([
        { roleType: 'primary', role: 'teacher', org: org('org-s1') },
        { roleType: 'primary', role: 'teacher', org: org('org-s2') },
      ]);
      expect(teacher.primaryOrg).toEqual(org('org-s1'));
      expect((await user12(t, 'usr-p1')).roles).toEqual([{ roleType: 'primary', role: 'parent', org: org('org-s1') }]);
      expect(await user11(t, 'usr-a1')).toMatchObject({
        role: 'administrator',
        orgs: [{ sourcedId: 'org-d' }, { sourcedId: 'org-s1' }],
      });
    });

    it('changes nothing on a re-import of the same package; a changed role or org order re-derives and bumps dateLastModified', async () => {
      const t = await h.tenant();
      expect((await run(t, withAdmin())).status).toBe('succeeded');
      const before = await modified(t, 'roster_users', 'usr-t1');
      const again = await run(t, withAdmin());
      expect(again.counts['users.csv']).toMatchObject({ updated: 0, inserted: 0, tombstoned: 0 });
      expect(await modified(t, 'roster_users', 'usr-t1')).toBe(before);

      const p = withAdmin();
      const rows = p.files['users.csv']!.rows;
      rows.find((r) => r.sourcedId === 'usr-t1')!.orgSourcedIds = 'org-s2,org-s1';
      rows.find((r) => r.sourcedId === 'usr-a1')!.role = 'aide';
      const changed = await run(t, p);
      expect(changed.counts['users.csv']).toMatchObject({ updated: 2 });
      expect(await modified(t, 'roster_users', 'usr-t1')).not.toBe(before);
      const teacher = await user12(t, 'usr-t1');
      expect(teacher.roles.map((r: Json) => r.org.sourcedId)).toEqual(['org-s2', 'org-s1']);
      expect(teacher.primaryOrg.sourcedId).toBe('org-s2');
      expect((await user12(t, 'usr-a1')).roles.map((r: Json) => r.role)).toEqual(['aide', 'aide']);
    });

    it('derives from the stored org types for a delta users file, and ends the v1.2 role records of the users it lists', async () => {
      const t = await h.tenant();
      expect((await run(t, withAdmin())).status).toBe('succeeded');
      const insertRole = (id: string, user: string) =>
        h.ds.query(
          `INSERT INTO roster_user_roles (tenant_id, sourced_id, status, date_last_modified, user_sourced_id, role_type, role, org_sourced_id) VALUES ($1, $2, 'active', now(), $3, 'secondary', 'counselor', 'org-s1')`,
          [t.tenantId, id, user],
        );
      await insertRole('rl-1', 'usr-a1');
      await insertRole('rl-2', 'usr-s2');
      const p = clonePackage(withAdmin());
      for (const [k] of p.manifest)
        if (k.startsWith('file.') && k !== 'file.users') setMode(p, k.slice(5) as never, 'absent');
      setMode(p, 'users', 'delta');
      p.files['users.csv']!.rows = [
        {
          ...withAdmin().files['users.csv']!.rows.find((r) => r.sourcedId === 'usr-a1')!,
          status: 'active',
          dateLastModified: '2025-05-01T00:00:00Z',
          orgSourcedIds: 'org-s2,org-d',
        },
      ];
      expect((await run(t, p)).status).toBe('succeeded');
      expect(await user12(t, 'usr-a1')).toMatchObject({
        roles: [
          { roleType: 'primary', role: 'siteAdministrator', org: org('org-s2') },
          { roleType: 'primary', role: 'districtAdministrator', org: org('org-d') },
        ],
        primaryOrg: org('org-s2'),
      });
      const status = async (id: string) =>
        (
          await h.ds.query('SELECT status FROM roster_user_roles WHERE tenant_id = $1 AND sourced_id = $2', [
            t.tenantId,
            id,
          ])
        )[0].status;
      expect([await status('rl-1'), await status('rl-2')]).toEqual(['tobedeleted', 'active']);
    });
  });

  describe('1.2 packages', () => {
    let t: TenantSetup;
    let read: (service: V1p2Service, path: string, schema: string) => Promise<Json>;

    beforeAll(async () => {
      t = await h.tenant();
      const report = await run(t, v1p2Package());
      expect(report).toMatchObject({ status: 'succeeded', errors: [], warnings: [] });
      const token = await h.token(t, [SCOPE_V1P2.roster, SCOPE_V1P2.gradebook, SCOPE_V1P2.resource]);
      read = async (service, path, schema) => {
        const res = await v1p2(h, service, 'get', path, token).expect(200);
        expectV1p2(service, schema, res.body);
        return res.body;
      };
    });

    it("serve exactly the package's roles, profiles, preferred names, pronouns, master identifier, primary org and resources through 1.2", async () => {
      const teacher = (await read('rostering', 'users/usr-t1', 'SingleUserDType')).user;
      expect(teacher).toMatchObject({
        roles: [
          { roleType: 'primary', role: 'teacher', org: org('org-s1'), userProfile: PROFILE_URI },
          { roleType: 'primary', role: 'teacher', org: org('org-s2') },
          { roleType: 'secondary', role: 'ext:coach', org: org('org-s1') },
        ],
        primaryOrg: org('org-s2'),
        userProfiles: [
          {
            profileId: PROFILE_URI,
            profileType: 'LMS',
            vendorId: 'acme',
            applicationId: 'lms',
            description: 'Teacher login',
            credentials: [{ type: 'password', username: 'tess' }],
          },
        ],
        resources: [
          ref('resources', 'resources', 'resource')('res-1'),
          ref('resources', 'resources', 'resource')('res-2'),
        ],
      });
      expect(JSON.stringify(teacher)).not.toContain('never-stored');
      const profileUrn = 'urn:oneroster:userprofile:prof%20s1%2F%C3%BC';
      expect((await read('rostering', 'users/usr-s1', 'SingleUserDType')).user).toMatchObject({
        givenName: 'Samantha',
        preferredFirstName: 'Sam',
        preferredMiddleName: 'J',
        preferredLastName: 'Win',
        pronouns: 'they/them',
        userMasterIdentifier: 'MID-1001',
        primaryOrg: org('org-s1'),
        roles: [
          {
            roleType: 'primary',
            role: 'student',
            org: org('org-s1'),
            userProfile: profileUrn,
            beginDate: '2025-01-28',
            endDate: '2025-12-19',
          },
        ],
        userProfiles: [
          {
            profileId: profileUrn,
            profileType: 'Reading app',
            vendorId: 'readco',
            credentials: [{ type: 'sso', username: 'sam@school.example' }],
          },
        ],
      });
      expect(PROFILE_PLAIN).toBe('prof s1/ü');
      const parent = (await read('rostering', 'users/usr-p1', 'SingleUserDType')).user;
      for (const field of ['primaryOrg', 'userProfiles', 'resources', 'pronouns'])
        expect(parent).not.toHaveProperty(field);
      expect(ids((await read('resources', 'users/usr-s1/resources', 'ResourceSetDType')).resources)).toEqual(['res-1']);
      expect(ids((await read('rostering', 'users?limit=100', 'UserSetDType')).users)).toEqual([
        'usr-a1',
        'usr-p1',
        'usr-s1',
        'usr-s2',
        'usr-t1',
      ]);
      const demographics = await v1p2(
        h,
        'rostering',
        'get',
        'demographics/usr-s1',
        await h.token(t, [SCOPE_V1P2.demographics]),
      ).expect(200);
      expectV1p2('rostering', 'SingleDemographicsDType', demographics.body);
      expect(demographics.body.demographics.sex).toBe('other');
    });

    it('serve the same people through 1.1: the role at the primary org in the 1.1 vocabulary, every org primary first', async () => {
      const token = await h.token(t, [SCOPE.roster]);
      const user = async (id: string) => (await h.get(`${PREFIX}/users/${id}`, token).expect(200)).body.user;
      expect(await user('usr-a1')).toMatchObject({
        role: 'administrator',
        orgs: [{ sourcedId: 'org-d' }, { sourcedId: 'org-s1' }],
      });
      expect(await user('usr-t1')).toMatchObject({
        role: 'teacher',
        orgs: [{ sourcedId: 'org-s2' }, { sourcedId: 'org-s1' }],
      });
      expect(await user('usr-s1')).toMatchObject({ role: 'student', orgs: [{ sourcedId: 'org-s1' }] });
      expect((await user('usr-s1')).preferredFirstName).toBeUndefined();
      expect(ids((await h.get(`${PREFIX}/students`, token).expect(200)).body.users)).toEqual(['usr-s1', 'usr-s2']);
      // /teachers serves all staff, administrators included.
      expect(ids((await h.get(`${PREFIX}/teachers`, token).expect(200)).body.users)).toEqual(['usr-a1', 'usr-t1']);
      expect(ids((await read('rostering', 'teachers', 'UserSetDType')).users)).toEqual(['usr-a1', 'usr-t1']);
      expect((await read('rostering', 'orgs/org-t', 'SingleOrgDType')).org.type).toBe('ext:trust');
      expect((await read('rostering', 'classes/cls-2', 'SingleClassDType')).class.classType).toBe('ext:online');
    });

    it('serve score scales, line items and results with their 1.2 fields through the 1.2 gradebook', async () => {
      expect((await read('gradebook', 'scoreScales/ss-1', 'SingleScoreScaleDType')).scoreScale).toMatchObject({
        title: 'Letter grades',
        type: 'letter',
        course: ref('rostering', 'courses', 'course')('crs-1'),
        class: ref('rostering', 'classes', 'class')('cls-1'),
        scoreScaleValue: [
          { itemValueLHS: 'A', itemValueRHS: '90 - 100' },
          { itemValueLHS: 'B', itemValueRHS: '80 - 89' },
          { itemValueLHS: 'C', itemValueRHS: '0 - 79' },
        ],
      });
      expect(ids((await read('gradebook', 'schools/org-s2/scoreScales', 'ScoreScaleSetDType')).scoreScales)).toEqual([
        'ss-2',
      ]);
      expect((await read('gradebook', 'categories/cat-1', 'SingleCategoryDType')).category.weight).toBe(0.4);
      expect((await read('gradebook', 'lineItems/li-1', 'SingleLineItemDType')).lineItem).toMatchObject({
        school: org('org-s1'),
        academicSession: ref('rostering', 'academicSessions', 'academicSession')('as-gp1'),
        scoreScale: ref('gradebook', 'scoreScales', 'scoreScale')('ss-1'),
        learningObjectiveSet: [
          { source: '/state', learningObjectiveIds: ['MA.7.1', 'MA.7.2'] },
          { source: 'case', learningObjectiveIds: [CASE_ID] },
        ],
      });
      const li2 = (await read('gradebook', 'lineItems/li-2', 'SingleLineItemDType')).lineItem;
      for (const field of ['scoreScale', 'learningObjectiveSet', 'gradingPeriod'])
        expect(li2).not.toHaveProperty(field);
      expect((await read('gradebook', 'results/rs-1', 'SingleResultDType')).result).toMatchObject({
        class: ref('rostering', 'classes', 'class')('cls-1'),
        scoreScale: ref('gradebook', 'scoreScales', 'scoreScale')('ss-1'),
        score: 9.5,
        textScore: 'A',
        late: 'false',
        missing: 'false',
        learningObjectiveSet: [
          { source: '/state', learningObjectiveResults: [{ learningObjectiveId: 'MA.7.1', textScore: 'met' }] },
          { source: 'case', learningObjectiveResults: [{ learningObjectiveId: CASE_ID, score: 3 }] },
        ],
      });
      const rs3 = (await read('gradebook', 'results/rs-3', 'SingleResultDType')).result;
      expect(rs3).toMatchObject({
        textScore: 'Incomplete',
        inProgress: 'true',
        incomplete: 'true',
        class: ref('rostering', 'classes', 'class')('cls-2'),
      });
      expect(rs3).not.toHaveProperty('score');
    });

    it('changes nothing when the same package comes again', async () => {
      const before = await h.ds.query(
        'SELECT sourced_id, date_last_modified::text FROM roster_users WHERE tenant_id = $1 UNION ALL SELECT sourced_id, date_last_modified::text FROM gradebook_line_items WHERE tenant_id = $1 ORDER BY 1',
        [t.tenantId],
      );
      const again = await run(t, v1p2Package());
      expect(again.status).toBe('succeeded');
      for (const counts of Object.values(again.counts))
        expect(counts).toMatchObject({ inserted: 0, updated: 0, tombstoned: 0 });
      expect(
        await h.ds.query(
          'SELECT sourced_id, date_last_modified::text FROM roster_users WHERE tenant_id = $1 UNION ALL SELECT sourced_id, date_last_modified::text FROM gradebook_line_items WHERE tenant_id = $1 ORDER BY 1',
          [t.tenantId],
        ),
      ).toEqual(before);
    });
  });

  it('a delta roles.csv that adds and tombstones roles changes roles, the 1.1 role and orgs, and dateLastModified', async () => {
    const t = await h.tenant();
    expect((await run(t, v1p2Package())).status).toBe('succeeded');
    const before = await modified(t, 'roster_users', 'usr-s2');
    const untouched = await modified(t, 'roster_users', 'usr-t1');
    const at = '2025-06-01T00:00:00Z';
    const report = await run(
      t,
      v1p2Delta({
        roles: [
          { sourcedId: 'r-a1b', status: 'tobedeleted', dateLastModified: at },
          {
            sourcedId: 'r-a1c',
            status: 'active',
            dateLastModified: at,
            userSourcedId: 'usr-a1',
            roleType: 'primary',
            role: 'siteAdministrator',
            orgSourcedId: 'org-s2',
          },
          { sourcedId: 'r-s2', status: 'tobedeleted', dateLastModified: at },
          {
            sourcedId: 'r-s2b',
            status: 'active',
            dateLastModified: at,
            userSourcedId: 'usr-s2',
            roleType: 'primary',
            role: 'aide',
            orgSourcedId: 'org-s2',
          },
        ],
      }),
    );
    expect(report).toMatchObject({ status: 'succeeded', errors: [] });
    expect(report.counts['roles.csv']).toMatchObject({ inserted: 2, tombstoned: 2 });
    expect((await user12(t, 'usr-a1')).roles).toEqual([
      { roleType: 'primary', role: 'districtAdministrator', org: org('org-d') },
      { roleType: 'primary', role: 'siteAdministrator', org: org('org-s2') },
    ]);
    expect(await user11(t, 'usr-a1')).toMatchObject({
      role: 'administrator',
      orgs: [{ sourcedId: 'org-d' }, { sourcedId: 'org-s2' }],
    });
    const s2 = await user12(t, 'usr-s2');
    expect(s2.roles).toEqual([{ roleType: 'primary', role: 'aide', org: org('org-s2') }]);
    expect(s2.dateLastModified).toMatch(ISO_DATETIME);
    expect(await modified(t, 'roster_users', 'usr-s2')).not.toBe(before);
    expect(await modified(t, 'roster_users', 'usr-t1')).toBe(untouched);
    // An aide is staff: from /students to /teachers, in both versions.
    const token = await h.token(t, [SCOPE.roster]);
    expect(ids((await h.get(`${PREFIX}/students`, token).expect(200)).body.users)).toEqual(['usr-s1']);
    expect(ids((await h.get(`${PREFIX}/teachers`, token).expect(200)).body.users)).toEqual([
      'usr-a1',
      'usr-s2',
      'usr-t1',
    ]);
    const groups = await h.ds.query(
      `SELECT role_group, array_agg(group_ordinal ORDER BY sourced_id COLLATE "C") AS o FROM roster_users WHERE tenant_id = $1 GROUP BY 1 ORDER BY 1`,
      [t.tenantId],
    );
    expect(groups).toEqual([
      { role_group: 'other', o: [0] },
      { role_group: 'staff', o: [0, 1, 2] },
      { role_group: 'student', o: [0] },
    ]);
  });

  it("a delta users row keeps its own dateLastModified unless its user's records changed in the same import", async () => {
    const t = await h.tenant();
    expect((await run(t, v1p2Package())).status).toBe('succeeded');
    const users = v1p2Package().files['users.csv']!.rows;
    const at = '2025-05-01T00:00:00.000Z';
    const report = await run(
      t,
      v1p2Delta({
        users: [
          {
            ...users.find((r) => r.sourcedId === 'usr-s1')!,
            status: 'active',
            dateLastModified: at,
            pronouns: 'she/her',
          },
          {
            ...users.find((r) => r.sourcedId === 'usr-s2')!,
            status: 'active',
            dateLastModified: at,
            pronouns: 'he/him',
          },
        ],
        userResources: [{ sourcedId: 'ur-1', status: 'tobedeleted', dateLastModified: at }],
      }),
    );
    expect(report).toMatchObject({ status: 'succeeded', errors: [] });
    const s1 = await user12(t, 'usr-s1');
    expect(s1).toMatchObject({ pronouns: 'she/her' });
    expect(s1).not.toHaveProperty('resources');
    expect(s1.dateLastModified).not.toBe(at);
    expect(await user12(t, 'usr-s2')).toMatchObject({ pronouns: 'he/him', dateLastModified: at });
  });
});
