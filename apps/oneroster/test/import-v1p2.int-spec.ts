import { clonePackage, schoolPackage, setMode, writeFolder, type CsvPackage } from './support/csv-package';
import { PREFIX, RosterHarness, SCOPE, type TenantSetup } from './support/harness';
import { importFolder } from './support/load';
import { SCOPE_V1P2, V1P2_HREF, v1p2 } from './support/v1p2';
import { expectV1p2 } from './support/v1p2/oas-schemas';

type Json = ReturnType<typeof JSON.parse>;
const org = (id: string) => ({ href: `${V1P2_HREF.rostering}/orgs/${id}`, sourcedId: id, type: 'org' });

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
  const user11 = async (t: TenantSetup, id: string): Promise<Json> => (await h.get(`${PREFIX}/users/${id}`, await h.token(t, [SCOPE.roster])).expect(200)).body.user;
  const modified = async (t: TenantSetup, table: string, id: string): Promise<string> =>
    (await h.ds.query(`SELECT date_last_modified::text AS m FROM ${table} WHERE tenant_id = $1 AND sourced_id = $2`, [t.tenantId, id]))[0].m;

  describe('1.1 packages fill the 1.2 view of their users', () => {
    /** schoolPackage() plus an administrator of the district and a school. */
    const withAdmin = (): CsvPackage => {
      const p = schoolPackage();
      p.files['users.csv']!.rows.push({ sourcedId: 'usr-a1', enabledUser: 'true', orgSourcedIds: 'org-d,org-s1', role: 'administrator', username: 'ada.admin', givenName: 'Ada', familyName: 'Park' });
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
      expect(await user11(t, 'usr-a1')).toMatchObject({ role: 'administrator', orgs: [{ sourcedId: 'org-d' }, { sourcedId: 'org-s1' }] });
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
      for (const [k] of p.manifest) if (k.startsWith('file.') && k !== 'file.users') setMode(p, k.slice(5) as never, 'absent');
      setMode(p, 'users', 'delta');
      p.files['users.csv']!.rows = [{ ...withAdmin().files['users.csv']!.rows.find((r) => r.sourcedId === 'usr-a1')!, status: 'active', dateLastModified: '2025-05-01T00:00:00Z', orgSourcedIds: 'org-s2,org-d' }];
      expect((await run(t, p)).status).toBe('succeeded');
      expect(await user12(t, 'usr-a1')).toMatchObject({
        roles: [
          { roleType: 'primary', role: 'siteAdministrator', org: org('org-s2') },
          { roleType: 'primary', role: 'districtAdministrator', org: org('org-d') },
        ],
        primaryOrg: org('org-s2'),
      });
      const status = async (id: string) => (await h.ds.query('SELECT status FROM roster_user_roles WHERE tenant_id = $1 AND sourced_id = $2', [t.tenantId, id]))[0].status;
      expect([await status('rl-1'), await status('rl-2')]).toEqual(['tobedeleted', 'active']);
    });
  });
});
