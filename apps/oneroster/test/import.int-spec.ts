import { writeFileSync } from 'node:fs';
import * as path from 'node:path';
import type { NestExpressApplication } from '@nestjs/platform-express';
import { Client } from 'pg';
import request from 'supertest';
import { loadConfig } from '@edu/config';
import { DEFAULT_ONEROSTER_SCOPE_BASE } from '@edu/domain';
import { baseTestEnv, createTestApp, createTestDatabase, TestIssuer, type TestDatabase } from '@edu/testing';
import { ImsxErrorFilter } from '../src/common/imsx-error.filter';
import { OnerosterEnv } from '../src/oneroster.env';
import { importRosterPackage, UnknownTenantError, type ImportReport } from '../src/imports/roster-importer';
import { openRosterPackage } from '../src/imports/roster-package';
import { RosterImportsService } from '../src/imports/roster-imports.service';
import { OnerosterModule } from '../src/oneroster.module';
import {
  clonePackage,
  csvText,
  packageFiles,
  packageZip,
  schoolPackage,
  setMode,
  writeFolder,
  zipBuffer,
  type CsvPackage,
} from './support/csv-package';

const TABLES = [
  'roster_orgs',
  'roster_academic_sessions',
  'roster_courses',
  'roster_classes',
  'roster_users',
  'roster_enrollments',
  'roster_demographics',
];
const ADMIN_SCOPE = 'https://api.edu.example/scope/platform.admin';

describe('roster CSV import', () => {
  let db: TestDatabase;
  let client: Client;
  let tenantId: string;
  let otherTenantId: string;

  const newTenant = async (): Promise<string> => {
    const { rows } = await client.query<{ id: string }>(
      `INSERT INTO tenants (name, customer_id, govt_id, region_id, licences) VALUES ('School', floor(random() * 2000000000)::int, 'G1', 'AU-NSW', '{data-operations}') RETURNING id`,
    );
    return rows[0]!.id;
  };

  const run = (location: string, tenant = tenantId): Promise<ImportReport> =>
    importRosterPackage(client, () => openRosterPackage(location), {
      tenantId: tenant,
      source: path.basename(location),
    });
  const runPackage = (p: CsvPackage, tenant = tenantId, raw: Record<string, string | Buffer> = {}) =>
    run(writeFolder(p, raw), tenant);

  /** Every roster row and the data version of a tenant: equal snapshots = nothing written. */
  const snapshot = async (tenant = tenantId): Promise<string> => {
    const parts: unknown[] = [];
    for (const t of TABLES)
      parts.push((await client.query(`SELECT * FROM ${t} WHERE tenant_id = $1 ORDER BY sourced_id`, [tenant])).rows);
    parts.push((await client.query('SELECT version FROM roster_data_versions WHERE tenant_id = $1', [tenant])).rows);
    return JSON.stringify(parts);
  };
  const row = async (table: string, id: string, tenant = tenantId) =>
    (await client.query(`SELECT * FROM ${table} WHERE tenant_id = $1 AND sourced_id = $2`, [tenant, id])).rows[0];
  const version = async (tenant = tenantId) =>
    (await client.query('SELECT version::int AS v FROM roster_data_versions WHERE tenant_id = $1', [tenant])).rows[0]
      ?.v;

  /** ordinal (and the partition ordinals) = position in sourcedId byte order, dense from 0. */
  const expectDenseOrdinals = async (tenant = tenantId) => {
    for (const t of TABLES) {
      const { rows } = await client.query(
        `SELECT count(*)::int AS bad FROM (SELECT ordinal, row_number() OVER (ORDER BY sourced_id COLLATE "C") - 1 AS pos FROM ${t} WHERE tenant_id = $1) x WHERE ordinal <> pos`,
        [tenant],
      );
      expect({ table: t, bad: rows[0].bad }).toEqual({ table: t, bad: 0 });
    }
    const users = await client.query(
      `SELECT count(*)::int AS bad FROM (SELECT group_ordinal, row_number() OVER (PARTITION BY role_group ORDER BY sourced_id COLLATE "C") - 1 AS pos FROM roster_users WHERE tenant_id = $1) x WHERE group_ordinal <> pos`,
      [tenant],
    );
    expect(users.rows[0].bad).toBe(0);
    const sessions = await client.query(
      `SELECT count(*)::int AS bad FROM (SELECT type_ordinal, row_number() OVER (PARTITION BY type ORDER BY sourced_id COLLATE "C") - 1 AS pos FROM roster_academic_sessions WHERE tenant_id = $1) x WHERE type_ordinal <> pos`,
      [tenant],
    );
    expect(sessions.rows[0].bad).toBe(0);
  };

  beforeAll(async () => {
    db = await createTestDatabase();
    client = new Client({ connectionString: db.url });
    await client.connect();
    tenantId = await newTenant();
    otherTenantId = await newTenant();
  });

  afterAll(async () => {
    await client?.end();
    await db?.drop();
  });

  describe('bulk', () => {
    it('imports a good package with every field, canonical enums and no passwords', async () => {
      const report = await runPackage(schoolPackage());
      expect(report).toMatchObject({
        status: 'succeeded',
        mode: 'bulk',
        errors: [],
        errorCount: 0,
        dataVersion: '1',
        rows: 19,
      });
      expect(report.counts['users.csv']).toEqual({ inserted: 4, updated: 0, unchanged: 0, tombstoned: 0 });
      expect(await version()).toBe(1);

      const student = await row('roster_users', 'usr-s1');
      expect(student).toMatchObject({
        status: 'active',
        role: 'student',
        role_group: 'student',
        enabled_user: true,
        org_sourced_ids: ['org-s1'],
        agent_sourced_ids: ['usr-p1'],
        grades: ['07'],
        user_ids: [
          { type: 'SIS', identifier: '1001' },
          { type: 'LDAP', identifier: 'uid=sam' },
        ],
        email: 'sam@school.example',
        middle_name: null,
        metadata: null,
      });
      expect(JSON.stringify(await client.query('SELECT * FROM roster_users'))).not.toContain('never-stored');
      expect(await row('roster_users', 'usr-t1')).toMatchObject({
        role_group: 'staff',
        org_sourced_ids: ['org-s1', 'org-s2'],
      });
      expect(await row('roster_users', 'usr-p1')).toMatchObject({ role_group: 'other', enabled_user: false });
      expect(await row('roster_classes', 'cls-1')).toMatchObject({
        class_type: 'scheduled',
        term_sourced_ids: ['as-t1', 'as-t2'],
        periods: ['1', '3'],
        grades: ['07'],
        subjects: [],
      });
      expect(await row('roster_orgs', 'org-s2')).toMatchObject({ type: 'school', parent_sourced_id: 'org-d' });
      expect(await row('roster_enrollments', 'enr-1')).toMatchObject({
        primary: true,
        begin_date: expect.anything(),
        end_date: null,
      });
      expect(await row('roster_demographics', 'usr-s1')).toMatchObject({
        sex: 'female',
        asian: true,
        white: false,
        black_or_african_american: null,
        city_of_birth: 'Sydney',
      });
      const stamp = (await row('roster_users', 'usr-s1')).date_last_modified as Date;
      expect(Math.abs(stamp.getTime() - report.startedAt.getTime())).toBeLessThan(60_000);
      await expectDenseOrdinals();

      const { rows: log } = await client.query(
        'SELECT status, mode, data_version::int AS v, counts FROM roster_imports WHERE id = $1',
        [report.id],
      );
      expect(log[0]).toMatchObject({ status: 'succeeded', mode: 'bulk', v: 1 });
      expect(log[0].counts['enrollments.csv']).toEqual({ inserted: 3, updated: 0, unchanged: 0, tombstoned: 0 });
    });

    it('changes nothing when the same data is imported again (timestamps kept), but publishes a new version', async () => {
      const before = await snapshot();
      const report = await runPackage(schoolPackage());
      expect(report.status).toBe('succeeded');
      for (const counts of Object.values(report.counts))
        expect(counts).toMatchObject({ inserted: 0, updated: 0, tombstoned: 0 });
      expect(report.counts['users.csv']!.unchanged).toBe(4);
      expect(await version()).toBe(2);
      const after = await snapshot();
      expect(after.replace(/\[\{"version":"\d+"\}\]/, '')).toBe(before.replace(/\[\{"version":"\d+"\}\]/, ''));
    });

    it('bumps dateLastModified when only a relationship changes, and leaves other records alone', async () => {
      const p = schoolPackage();
      p.files['users.csv']!.rows.find((r) => r.sourcedId === 'usr-s2')!.orgSourcedIds = 'org-s2,org-s1';
      p.files['classes.csv']!.rows.find((r) => r.sourcedId === 'cls-2')!.termSourcedIds = 'as-t1,as-t2';
      const before = {
        s2: await row('roster_users', 'usr-s2'),
        s1: await row('roster_users', 'usr-s1'),
        cls2: await row('roster_classes', 'cls-2'),
      };
      const report = await runPackage(p);
      expect(report.counts['users.csv']).toEqual({ inserted: 0, updated: 1, unchanged: 3, tombstoned: 0 });
      expect(report.counts['classes.csv']).toEqual({ inserted: 0, updated: 1, unchanged: 1, tombstoned: 0 });
      const s2 = await row('roster_users', 'usr-s2');
      expect(s2.org_sourced_ids).toEqual(['org-s2', 'org-s1']);
      expect(s2.date_last_modified.getTime()).toBeGreaterThan(before.s2.date_last_modified.getTime());
      expect((await row('roster_classes', 'cls-2')).date_last_modified.getTime()).toBeGreaterThan(
        before.cls2.date_last_modified.getTime(),
      );
      expect((await row('roster_users', 'usr-s1')).date_last_modified).toEqual(before.s1.date_last_modified);
    });

    it('marks records missing from a bulk file tobedeleted (once), revives them when they return, keeps ordinals dense', async () => {
      const p = schoolPackage();
      p.files['enrollments.csv']!.rows = p.files['enrollments.csv']!.rows.filter((r) => r.sourcedId !== 'enr-3');
      p.files['users.csv']!.rows.push({
        sourcedId: 'usr-a0',
        enabledUser: 'true',
        orgSourcedIds: 'org-s1',
        role: 'aide',
        username: 'ada.aide',
        givenName: 'Ada',
        familyName: 'Aide',
      });
      const first = await runPackage(p);
      expect(first.counts['enrollments.csv']).toEqual({ inserted: 0, updated: 0, unchanged: 2, tombstoned: 1 });
      const gone = await row('roster_enrollments', 'enr-3');
      expect(gone.status).toBe('tobedeleted');
      await expectDenseOrdinals();
      expect(await row('roster_users', 'usr-a0')).toMatchObject({ ordinal: 0, role_group: 'staff', group_ordinal: 0 });

      const again = await runPackage(p);
      expect(again.counts['enrollments.csv']).toEqual({ inserted: 0, updated: 0, unchanged: 2, tombstoned: 0 });
      expect((await row('roster_enrollments', 'enr-3')).date_last_modified).toEqual(gone.date_last_modified);

      const back = await runPackage(schoolPackage());
      expect(back.counts['enrollments.csv']).toEqual({ inserted: 0, updated: 1, unchanged: 2, tombstoned: 0 });
      expect((await row('roster_enrollments', 'enr-3')).status).toBe('active');
      expect((await row('roster_users', 'usr-a0')).status).toBe('tobedeleted');
      await expectDenseOrdinals();
    });

    it('renumbers ordinals of an unsorted first load (direct rows, then staging)', async () => {
      const tenant = await newTenant();
      const p = schoolPackage();
      p.files['users.csv']!.rows.reverse();
      p.files['orgs.csv']!.rows.reverse();
      expect((await runPackage(p, tenant)).status).toBe('succeeded');
      await expectDenseOrdinals(tenant);
    });

    /** The import's progress messages "merged <file>: N inserted (M while reading)", as {file: [N, M]}. */
    const importWithLaps = async (p: CsvPackage, tenant: string) => {
      const laps: string[] = [];
      const report = await importRosterPackage(client, () => openRosterPackage(writeFolder(p)), {
        tenantId: tenant,
        source: 'laps',
        onProgress: (m) => laps.push(m),
      });
      const merged: Record<string, [number, number]> = {};
      for (const m of laps) {
        const hit = /^merged (\S+): (\d+) inserted \((\d+) while reading\)/.exec(m);
        if (hit) merged[hit[1]!] = [Number(hit[2]), Number(hit[3])];
      }
      return { report, laps, merged };
    };

    /** The school package with every file in sourcedId byte order (the usual export order). */
    const sortedPackage = (): CsvPackage => {
      const p = schoolPackage();
      for (const file of Object.values(p.files))
        file.rows.sort((a, b) => Buffer.compare(Buffer.from(a.sourcedId ?? ''), Buffer.from(b.sourcedId ?? '')));
      return p;
    };

    it('sends a first load in sourcedId order straight into the tables while reading; a second bulk import goes through staging and changes nothing', async () => {
      const tenant = await newTenant();
      const first = await importWithLaps(sortedPackage(), tenant);
      expect(first.report.status).toBe('succeeded');
      const files = [
        'orgs.csv',
        'academicSessions.csv',
        'courses.csv',
        'classes.csv',
        'users.csv',
        'enrollments.csv',
        'demographics.csv',
      ];
      for (const file of files) {
        const n = first.report.counts[file]!.inserted;
        expect({ file, merged: first.merged[file] }).toEqual({ file, merged: [n, n] });
        expect(n).toBeGreaterThan(0);
      }
      await expectDenseOrdinals(tenant);
      const before = await snapshot(tenant);

      const second = await importWithLaps(sortedPackage(), tenant);
      expect(second.report.status).toBe('succeeded');
      for (const file of files) expect({ file, merged: second.merged[file] }).toEqual({ file, merged: [0, 0] });
      const strip = (s: string) => s.replace(/\[\{"version":"\d+"\}\]/, '');
      expect(strip(await snapshot(tenant))).toBe(strip(before));
    });

    it('a refused first load leaves nothing, though its earlier files went straight into the tables; the next first load takes the same path', async () => {
      const tenant = await newTenant();
      const empty = await snapshot(tenant);
      const bad = sortedPackage();
      bad.files['demographics.csv']!.rows[0]!.sourcedId = 'usr-ghost'; // the last file: every other file was sent already
      const refused = await importWithLaps(bad, tenant);
      expect(refused.report.status).toBe('failed');
      expect(refused.report.errors).toContainEqual(
        expect.objectContaining({ file: 'demographics.csv', column: 'sourcedId' }),
      );
      for (const file of ['orgs.csv', 'users.csv', 'enrollments.csv'])
        expect(refused.laps.some((m) => m.startsWith(`read ${file}:`))).toBe(true);
      expect(await snapshot(tenant)).toBe(empty);
      expect(await version(tenant)).toBeUndefined();
      const { rows: log } = await client.query('SELECT status, data_version FROM roster_imports WHERE id = $1', [
        refused.report.id,
      ]);
      expect(log[0]).toEqual({ status: 'failed', data_version: null });

      const good = await importWithLaps(sortedPackage(), tenant);
      expect(good.report.status).toBe('succeeded');
      expect(good.merged['users.csv']).toEqual([4, 4]);
      expect(await version(tenant)).toBe(1);
    });

    it('reads a zip with BOM, CRLF, quoted multi-values, quotes and metadata columns', async () => {
      const p = schoolPackage();
      const users = p.files['users.csv']!;
      users.header.push('metadata.phoneticGivenName');
      users.rows.find((r) => r.sourcedId === 'usr-s1')!['metadata.phoneticGivenName'] = 'S\u00e6m';
      users.rows.find((r) => r.sourcedId === 'usr-s2')!.givenName = 'Ali "Al", Jr';
      const files = packageFiles(p);
      files['users.csv'] = '\ufeff' + csvText(users.header, users.rows, '\r\n');
      const dir = writeFolder(p);
      const zip = path.join(dir, 'package.zip');
      writeFileSync(
        zip,
        await zipBuffer(Object.fromEntries(Object.entries(files).map(([k, v]) => [`export/${k}`, v]))),
      );
      const tenant = await newTenant();
      const report = await run(zip, tenant);
      expect(report.errors).toEqual([]);
      expect(report.status).toBe('succeeded');
      expect(await row('roster_users', 'usr-s1', tenant)).toMatchObject({
        metadata: { phoneticGivenName: 'S\u00e6m' },
        user_ids: [expect.anything(), expect.anything()],
      });
      expect(await row('roster_users', 'usr-s2', tenant)).toMatchObject({ given_name: 'Ali "Al", Jr' });
      expect(await row('roster_classes', 'cls-1', tenant)).toMatchObject({ term_sourced_ids: ['as-t1', 'as-t2'] });
    });

    it('warns about and skips files the manifest marks absent and files the binding does not know', async () => {
      const p = schoolPackage();
      setMode(p, 'demographics', 'absent');
      const report = await runPackage(p, otherTenantId, {
        'lineItems.csv': 'sourcedId\n',
        'demographics.csv': 'sourcedId\n',
        'notes.txt': 'hello',
      });
      expect(report.status).toBe('succeeded');
      const warned = report.warnings.map((w) => w.file);
      expect(warned).toEqual(expect.arrayContaining(['lineItems.csv', 'demographics.csv', 'notes.txt']));
      expect(report.counts['demographics.csv']).toBeUndefined();
      expect(report.counts['lineItems.csv']).toBeUndefined();
    });
  });

  it('keeps a committed import succeeded when refreshing planner statistics fails afterwards', async () => {
    const tenant = await newTenant();
    const p = schoolPackage();
    // More than 10,000 new users: the import asks for ANALYZE of roster_users after its commit.
    for (let i = 0; i < 10_001; i++)
      p.files['users.csv']!.rows.push({
        sourcedId: `usr-many-${i}`,
        enabledUser: 'true',
        orgSourcedIds: 'org-s1',
        role: 'student',
        username: `many.${i}`,
        givenName: 'Many',
        familyName: `Student ${i}`,
      });
    // The connection cut after the commit (PostgreSQL restarting), just as ANALYZE is sent.
    const cut = new Proxy(client, {
      get(target, prop) {
        const value = Reflect.get(target, prop, target) as unknown;
        if (prop !== 'query' || typeof value !== 'function')
          return typeof value === 'function' ? value.bind(target) : value;
        return (q: unknown, ...rest: unknown[]) =>
          typeof q === 'string' && q.startsWith('ANALYZE "')
            ? Promise.reject(new Error('Connection terminated unexpectedly'))
            : (value as (...a: unknown[]) => unknown).call(target, q, ...rest);
      },
    });
    const report = await importRosterPackage(cut, () => openRosterPackage(writeFolder(p)), {
      tenantId: tenant,
      source: 'many-users',
    });
    expect(report.status).toBe('succeeded');
    const { rows } = await client.query('SELECT status, errors FROM roster_imports WHERE tenant_id = $1', [tenant]);
    expect(rows).toEqual([{ status: 'succeeded', errors: [] }]);
    const users = await client.query('SELECT count(*)::int AS n FROM roster_users WHERE tenant_id = $1', [tenant]);
    expect(users.rows[0].n).toBe(10_005);
  });

  describe('delta', () => {
    let tenant: string;
    beforeAll(async () => {
      tenant = await newTenant();
      expect((await runPackage(schoolPackage(), tenant)).status).toBe('succeeded');
    });

    const deltaPackage = (): CsvPackage => {
      const p = schoolPackage();
      for (const type of ['orgs', 'academicSessions', 'courses', 'classes', 'demographics'] as const)
        setMode(p, type, 'absent');
      setMode(p, 'users', 'delta');
      setMode(p, 'enrollments', 'delta');
      p.files['users.csv']!.rows = [
        {
          sourcedId: 'usr-s2',
          status: 'active',
          dateLastModified: '2025-05-01T10:00:00.000Z',
          enabledUser: 'true',
          orgSourcedIds: 'org-s2',
          role: 'student',
          username: 'ali.r',
          givenName: 'Ali',
          familyName: 'Rahman',
          grades: '08',
        },
        {
          sourcedId: 'usr-s0',
          status: 'active',
          dateLastModified: '2025-05-01T10:00:01Z',
          enabledUser: 'true',
          orgSourcedIds: 'org-s1',
          role: 'student',
          username: 'new.kid',
          givenName: 'New',
          familyName: 'Kid',
        },
        { sourcedId: 'usr-p1', status: 'tobedeleted', dateLastModified: '2025-05-02T00:00:00Z' },
        { sourcedId: 'usr-zz', status: 'inactive', dateLastModified: '2025-05-02T00:00:00Z' },
      ];
      p.files['enrollments.csv']!.rows = [
        {
          sourcedId: 'enr-4',
          status: 'active',
          dateLastModified: '2025-05-01T10:00:02Z',
          classSourcedId: 'cls-2',
          schoolSourcedId: 'org-s2',
          userSourcedId: 'usr-s0',
          role: 'student',
        },
      ];
      return p;
    };

    it('updates, adds and tombstones with the rows’ own timestamps; references resolve to stored data', async () => {
      const before = await row('roster_users', 'usr-s1', tenant);
      const report = await runPackage(deltaPackage(), tenant);
      expect(report.errors).toEqual([]);
      expect(report).toMatchObject({ status: 'succeeded', mode: 'delta' });
      expect(report.counts['users.csv']).toEqual({ inserted: 1, updated: 1, unchanged: 1, tombstoned: 1 });
      expect(report.warnings).toEqual([expect.objectContaining({ file: 'users.csv', line: 5, column: 'sourcedId' })]);
      expect(await row('roster_users', 'usr-s2', tenant)).toMatchObject({
        username: 'ali.r',
        date_last_modified: new Date('2025-05-01T10:00:00.000Z'),
      });
      expect(await row('roster_users', 'usr-p1', tenant)).toMatchObject({
        status: 'tobedeleted',
        date_last_modified: new Date('2025-05-02T00:00:00Z'),
        given_name: 'Pat',
      });
      // Untouched record: same data and timestamp (only its position moved: usr-s0 sorts before it).
      const { ordinal: _o1, group_ordinal: _g1, ...unchanged } = await row('roster_users', 'usr-s1', tenant);
      const { ordinal: _o0, group_ordinal: _g0, ...was } = before;
      expect(unchanged).toEqual(was);
      expect(_o1).toBe(_o0 + 1);
      expect(await row('roster_enrollments', 'enr-4', tenant)).toMatchObject({
        class_sourced_id: 'cls-2',
        user_sourced_id: 'usr-s0',
      });
      expect(await row('roster_orgs', 'org-s1', tenant)).toMatchObject({ status: 'active' });
      await expectDenseOrdinals(tenant);
    });

    it('renumbers partition ordinals only when a record changes partition', async () => {
      const t = await newTenant();
      expect((await runPackage(schoolPackage(), t)).status).toBe('succeeded');
      /** A delta of one user (changed by `edit`); the import's progress lines. */
      const deltaOfOneUser = async (id: string, edit: Record<string, string>): Promise<string[]> => {
        const p = schoolPackage();
        for (const type of ['orgs', 'academicSessions', 'courses', 'classes', 'enrollments', 'demographics'] as const)
          setMode(p, type, 'absent');
        setMode(p, 'users', 'delta');
        const users = p.files['users.csv']!;
        const user = users.rows.find((r) => r.sourcedId === id)!;
        users.rows = [{ ...user, ...edit, status: 'active', dateLastModified: '2025-06-01T00:00:00Z' }];
        const progress: string[] = [];
        const report = await importRosterPackage(client, () => openRosterPackage(writeFolder(p)), {
          tenantId: t,
          source: 'one-user',
          onProgress: (m) => progress.push(m),
        });
        expect(report.errors).toEqual([]);
        expect(report.counts['users.csv']).toMatchObject({ inserted: 0, updated: 1 });
        return progress.filter((m) => m.startsWith('merged users.csv'));
      };

      // A new given name: no record moves, nothing is renumbered.
      expect(await deltaOfOneUser('usr-s2', { givenName: 'Alia' })).toEqual([
        expect.not.stringContaining('ordinals renumbered'),
      ]);
      expect(await row('roster_users', 'usr-s2', t)).toMatchObject({ given_name: 'Alia', group_ordinal: 1 });
      await expectDenseOrdinals(t);

      // A student becomes a teacher: both groups' positions change.
      expect(await deltaOfOneUser('usr-s1', { role: 'teacher' })).toEqual([
        expect.stringContaining('ordinals renumbered'),
      ]);
      expect(await row('roster_users', 'usr-s2', t)).toMatchObject({ role_group: 'student', group_ordinal: 0 });
      expect(await row('roster_users', 'usr-s1', t)).toMatchObject({ role_group: 'staff', group_ordinal: 0 });
      await expectDenseOrdinals(t);
    });

    it('requires status and dateLastModified on every delta row', async () => {
      const p = deltaPackage();
      p.files['users.csv']!.rows[0]!.status = '';
      p.files['users.csv']!.rows[1]!.dateLastModified = '';
      const before = await snapshot(tenant);
      const report = await runPackage(p, tenant);
      expect(report.status).toBe('failed');
      expect(report.errors).toEqual([
        { file: 'users.csv', line: 2, column: 'status', message: 'status is required in delta files' },
        {
          file: 'users.csv',
          line: 3,
          column: 'dateLastModified',
          message: 'dateLastModified is required in delta files',
        },
      ]);
      expect(await snapshot(tenant)).toBe(before);
    });
  });

  describe('refused packages (nothing written, every error named)', () => {
    const edit = (fn: (p: CsvPackage) => void): CsvPackage => {
      const p = clonePackage(schoolPackage());
      fn(p);
      return p;
    };
    const userRow = (p: CsvPackage, id: string) => p.files['users.csv']!.rows.find((r) => r.sourcedId === id)!;

    const cases: [
      string,
      () => CsvPackage,
      Record<string, string>,
      { file: string; line: number; column: string; message: RegExp },
    ][] = [
      [
        'a missing required value',
        () => edit((p) => (userRow(p, 'usr-s2').givenName = '')),
        {},
        { file: 'users.csv', line: 4, column: 'givenName', message: /givenName is required/ },
      ],
      [
        'a bad enumeration value',
        () => edit((p) => (userRow(p, 'usr-s2').role = 'wizard')),
        {},
        { file: 'users.csv', line: 4, column: 'role', message: /'wizard' is not one of administrator/ },
      ],
      [
        'a bad date',
        () => edit((p) => (p.files['academicSessions.csv']!.rows[1]!.startDate = '2025-13-01')),
        {},
        { file: 'academicSessions.csv', line: 3, column: 'startDate', message: /not a date/ },
      ],
      [
        'a bad boolean',
        () => edit((p) => (userRow(p, 'usr-s2').enabledUser = 'yes')),
        {},
        { file: 'users.csv', line: 4, column: 'enabledUser', message: /not a boolean/ },
      ],
      [
        'a bad datetime',
        () => edit((p) => (userRow(p, 'usr-s2').dateLastModified = 'yesterday')),
        {},
        { file: 'users.csv', line: 4, column: 'dateLastModified', message: /ISO 8601/ },
      ],
      [
        'a bad grade',
        () => edit((p) => (userRow(p, 'usr-s2').grades = '08,Year 9')),
        {},
        { file: 'users.csv', line: 4, column: 'grades', message: /'Year 9' is not a CEDS grade/ },
      ],
      [
        'a bad userIds cell',
        () => edit((p) => (userRow(p, 'usr-s2').userIds = 'SIS:1')),
        {},
        { file: 'users.csv', line: 4, column: 'userIds', message: /\{type:identifier\}/ },
      ],
      [
        'a duplicate sourcedId',
        () => edit((p) => p.files['courses.csv']!.rows.push({ ...p.files['courses.csv']!.rows[0]! })),
        {},
        {
          file: 'courses.csv',
          line: 4,
          column: 'sourcedId',
          message: /duplicate sourcedId 'crs-1' \(first on line 2\)/,
        },
      ],
      [
        'a duplicate user',
        () => edit((p) => p.files['users.csv']!.rows.push({ ...userRow(p, 'usr-s2') })),
        {},
        {
          file: 'users.csv',
          line: 6,
          column: 'sourcedId',
          message: /duplicate sourcedId 'usr-s2' \(first on line 4\)/,
        },
      ],
      [
        'a dangling reference',
        () => edit((p) => (p.files['enrollments.csv']!.rows[1]!.userSourcedId = 'usr-nobody')),
        {},
        {
          file: 'enrollments.csv',
          line: 3,
          column: 'userSourcedId',
          message: /'usr-nobody' is not a known user sourcedId \(looked in users.csv\)/,
        },
      ],
      [
        'a dangling same-file reference',
        () => edit((p) => (userRow(p, 'usr-s1').agentSourcedIds = 'usr-p1,usr-p9')),
        {},
        { file: 'users.csv', line: 3, column: 'agentSourcedIds', message: /'usr-p9' is not a known user/ },
      ],
      [
        'an enrollment whose school is not its class’s',
        () => edit((p) => (p.files['enrollments.csv']!.rows[2]!.schoolSourcedId = 'org-s1')),
        {},
        {
          file: 'enrollments.csv',
          line: 4,
          column: 'schoolSourcedId',
          message: /not the school of class 'cls-2' \(org-s2\)/,
        },
      ],
      [
        'a class whose school is a district',
        () => edit((p) => (p.files['classes.csv']!.rows[1]!.schoolSourcedId = 'org-d')),
        {},
        { file: 'classes.csv', line: 3, column: 'schoolSourcedId', message: /type district, not a school/ },
      ],
      [
        'demographics of a non-user',
        () => edit((p) => (p.files['demographics.csv']!.rows[0]!.sourcedId = 'usr-ghost')),
        {},
        { file: 'demographics.csv', line: 2, column: 'sourcedId', message: /demographics describe users/ },
      ],
      [
        'an org parent cycle',
        () => edit((p) => (p.files['orgs.csv']!.rows[0]!.parentSourcedId = 'org-s1')),
        {},
        { file: 'orgs.csv', line: 2, column: 'parentSourcedId', message: /own ancestor/ },
      ],
      [
        'a term without terms',
        () => edit((p) => (p.files['classes.csv']!.rows[1]!.termSourcedIds = ' , ')),
        {},
        { file: 'classes.csv', line: 3, column: 'termSourcedIds', message: /at least one/ },
      ],
      [
        'an unknown column',
        () => edit((p) => p.files['users.csv']!.header.push('nickName')),
        {},
        { file: 'users.csv', line: 1, column: 'nickName', message: /unknown column 'nickName'.*metadata\.<name>/ },
      ],
      [
        'a misspelt column',
        () =>
          edit(
            (p) =>
              (p.files['demographics.csv']!.header = p.files['demographics.csv']!.header.map((h) =>
                h === 'stateOfBirthAbbreviation' ? 'stateofBirthAbbreviation' : h,
              )),
          ),
        {},
        {
          file: 'demographics.csv',
          line: 1,
          column: 'stateofBirthAbbreviation',
          message: /did you mean 'stateOfBirthAbbreviation'/,
        },
      ],
      [
        'a missing required column',
        () =>
          edit(
            (p) => (p.files['classes.csv']!.header = p.files['classes.csv']!.header.filter((h) => h !== 'classType')),
          ),
        {},
        { file: 'classes.csv', line: 1, column: 'classType', message: /missing column 'classType'/ },
      ],
      [
        'a misspelt manifest key',
        () => edit((p) => (p.manifest.find(([k]) => k === 'file.demographics')![0] = 'fiel.demographics')),
        {},
        {
          file: 'manifest.csv',
          line: 10,
          column: 'propertyName',
          message: /unknown manifest key 'fiel.demographics' \(did you mean 'file.demographics'\?\)/,
        },
      ],
      [
        'a bad manifest mode',
        () => edit((p) => (p.manifest.find(([k]) => k === 'file.users')![1] = 'full')),
        {},
        { file: 'manifest.csv', line: 16, column: 'value', message: /'full' is not a file mode/ },
      ],
      [
        'a wrong OneRoster version',
        () => edit((p) => (p.manifest.find(([k]) => k === 'oneroster.version')![1] = '1.3')),
        {},
        { file: 'manifest.csv', line: 3, column: 'value', message: /'oneroster.version' is '1.3'/ },
      ],
      [
        'a file the manifest lists but the package lacks',
        () => edit((p) => delete p.files['courses.csv']),
        {},
        { file: 'manifest.csv', line: 8, column: 'value', message: /courses.csv is not in the package/ },
      ],
      [
        'a row with too many cells',
        () => schoolPackage(),
        {
          'courses.csv':
            'sourcedId,status,dateLastModified,schoolYearSourcedId,title,courseCode,grades,orgSourcedId,subjects,subjectCodes\ncrs-1,,,,Maths,,,org-s1,,,extra\n',
        },
        { file: 'courses.csv', line: 2, column: '', message: /11 cells but the header has 10/ },
      ],
      [
        'malformed CSV',
        () => schoolPackage(),
        {
          'courses.csv':
            'sourcedId,status,dateLastModified,schoolYearSourcedId,title,courseCode,grades,orgSourcedId,subjects,subjectCodes\ncrs-1,,,,"Maths,,,org-s1,,\n',
        },
        { file: 'courses.csv', line: 2, column: '', message: /malformed CSV/ },
      ],
      [
        'a package without manifest',
        () => schoolPackage(),
        { 'manifest.csv': '' },
        { file: 'manifest.csv', line: 1, column: '', message: /propertyName,value/ },
      ],
    ];

    it.each(cases)('refuses %s', async (_name, make, raw, expected) => {
      const before = await snapshot();
      const log = await client.query('SELECT count(*)::int AS n FROM roster_imports WHERE tenant_id = $1', [tenantId]);
      const report = await runPackage(make(), tenantId, raw);
      expect(report.status).toBe('failed');
      expect(report.errors).toContainEqual({
        file: expected.file,
        line: expected.line,
        column: expected.column,
        message: expect.stringMatching(expected.message),
      });
      expect(await snapshot()).toBe(before);
      const after = await client.query('SELECT count(*)::int AS n FROM roster_imports WHERE tenant_id = $1', [
        tenantId,
      ]);
      expect(after.rows[0].n).toBe(log.rows[0].n + 1);
      const { rows } = await client.query('SELECT status, errors FROM roster_imports WHERE id = $1', [report.id]);
      expect(rows[0].status).toBe('failed');
      expect(rows[0].errors).toEqual(report.errors);
    });

    it('collects every error of every file, not just the first', async () => {
      const p = schoolPackage();
      p.files['orgs.csv']!.rows[1]!.type = 'campus';
      userRow(p, 'usr-s2').role = 'wizard';
      userRow(p, 'usr-t1').familyName = '';
      p.files['enrollments.csv']!.rows[0]!.beginDate = '28/01/2025';
      const report = await runPackage(p);
      expect(report.errors.map((e) => `${e.file}:${e.line}:${e.column}`)).toEqual([
        'orgs.csv:3:type',
        'users.csv:4:role',
        'users.csv:5:familyName',
        'enrollments.csv:2:beginDate',
      ]);
      expect(report.errorCount).toBe(4);
    });

    it('caps the listed errors and stops reading at the cap', async () => {
      const p = schoolPackage();
      for (let i = 0; i < 30; i++)
        p.files['enrollments.csv']!.rows.push({
          sourcedId: `enr-x${i}`,
          classSourcedId: 'cls-9',
          schoolSourcedId: 'org-s1',
          userSourcedId: 'usr-s1',
          role: 'student',
        });
      const report = await importRosterPackage(client, () => openRosterPackage(writeFolder(p)), {
        tenantId,
        source: 'cap',
        maxErrors: 10,
      });
      expect(report.errors).toHaveLength(10);
      expect(report.errorCount).toBe(10);
    });

    it('refuses something that is not a zip, and an unknown tenant', async () => {
      const dir = writeFolder(schoolPackage());
      const bogus = path.join(dir, 'bogus.zip');
      writeFileSync(bogus, 'this is not a zip file');
      const report = await run(bogus);
      expect(report.status).toBe('failed');
      expect(report.errors[0]).toMatchObject({
        file: '(package)',
        message: expect.stringMatching(/not a readable zip/),
      });
      await expect(run(dir, '0f0e0d0c-0b0a-4909-8807-060504030201')).rejects.toBeInstanceOf(UnknownTenantError);
    });
  });

  describe('operator endpoint', () => {
    let issuer: TestIssuer;
    let app: NestExpressApplication;
    let asyncApp: NestExpressApplication;
    let admin: string;

    const boot = (env: Record<string, string>) =>
      createTestApp(
        OnerosterModule.forRoot(
          loadConfig(
            OnerosterEnv,
            baseTestEnv({
              DATABASE_URL: db.url,
              JWKS_URL: issuer.jwksUrl,
              TOKEN_ISSUER: issuer.issuer,
              PUBLIC_BASE_URL: 'https://roster.test',
              ...env,
            }),
          ),
        ),
        { errorFilter: new ImsxErrorFilter() },
      );
    const post = (
      target: NestExpressApplication,
      tenant: string,
      body: Buffer | string,
      token = admin,
      type = 'application/zip',
    ) => {
      const req = request(target.getHttpServer())
        .post(`/admin/tenants/${tenant}/roster-imports`)
        .set('Content-Type', type);
      return (token ? req.set('Authorization', `Bearer ${token}`) : req).send(body);
    };
    const minor = (res: request.Response) =>
      res.body.statusInfoSet?.[0]?.imsx_CodeMinor?.imsx_codeMinorField?.[0]?.imsx_codeMinorFieldValue;

    beforeAll(async () => {
      issuer = await new TestIssuer().start();
      app = await boot({ ONEROSTER_IMPORT_MAX_BYTES: '200000' });
      asyncApp = await boot({ ONEROSTER_IMPORT_WAIT_MS: '0' });
      admin = await issuer.mint({ scopes: [ADMIN_SCOPE], sub: 'operator' });
    });

    afterAll(async () => {
      await app?.close();
      await asyncApp?.close();
      await issuer?.stop();
    });

    it('needs a token (401) with platform.admin (403)', async () => {
      const tenant = await newTenant();
      const none = await post(app, tenant, await packageZip(schoolPackage()), '');
      expect(none.status).toBe(401);
      expect(minor(none)).toBe('unauthorisedrequest');
      const reader = await issuer.mint({
        scopes: [`${DEFAULT_ONEROSTER_SCOPE_BASE}/roster.readonly`],
        tenantId: tenant,
      });
      const wrong = await post(app, tenant, await packageZip(schoolPackage()), reader);
      expect(wrong.status).toBe(403);
      expect(minor(wrong)).toBe('forbidden');
      expect(await version(tenant)).toBeUndefined();
    });

    it('imports a small package before answering (201) and reports it', async () => {
      const tenant = await newTenant();
      const res = await post(app, tenant, await packageZip(schoolPackage()));
      expect(res.status).toBe(201);
      expect(res.body.import).toMatchObject({
        tenant_id: tenant,
        status: 'succeeded',
        mode: 'bulk',
        data_version: '1',
        errors: [],
        error_count: 0,
      });
      expect(res.body.import.counts['users.csv']).toEqual({ inserted: 4, updated: 0, unchanged: 0, tombstoned: 0 });
      expect(res.headers['location']).toBe(`/admin/tenants/${tenant}/roster-imports/${res.body.import.id}`);
      const got = await request(app.getHttpServer())
        .get(res.headers['location']!)
        .set('Authorization', `Bearer ${admin}`)
        .expect(200);
      expect(got.body.import).toMatchObject({ id: res.body.import.id, status: 'succeeded', data_version: '1' });
      const list = await request(app.getHttpServer())
        .get(`/admin/tenants/${tenant}/roster-imports`)
        .set('Authorization', `Bearer ${admin}`)
        .expect(200);
      expect(list.body.imports.map((i: { id: string }) => i.id)).toEqual([res.body.import.id]);
      expect(await version(tenant)).toBe(1);
    });

    it('answers a refused package with 400 and one imsx entry per error', async () => {
      const tenant = await newTenant();
      const p = schoolPackage();
      p.files['users.csv']!.rows[1]!.role = 'wizard';
      p.files['enrollments.csv']!.rows[0]!.schoolSourcedId = 'org-s2';
      const res = await post(app, tenant, await packageZip(p));
      expect(res.status).toBe(400);
      expect(res.body.statusInfoSet).toHaveLength(2);
      expect(res.body.statusInfoSet[0]).toMatchObject({
        imsx_codeMajor: 'failure',
        imsx_severity: 'error',
        imsx_description: expect.stringContaining('users.csv line 3, column role'),
        imsx_CodeMinor: {
          imsx_codeMinorField: [
            { imsx_codeMinorFieldName: 'users.csv:3:role', imsx_codeMinorFieldValue: 'invaliddata' },
          ],
        },
      });
      expect(res.body.import).toMatchObject({ status: 'failed', error_count: 2 });
      expect(await version(tenant)).toBeUndefined();
    });

    it('refuses a body that is not a zip (400), the wrong media type (415), too large a body (413), an unknown tenant (404)', async () => {
      const tenant = await newTenant();
      const bad = await post(app, tenant, 'definitely not a zip');
      expect(bad.status).toBe(400);
      expect(minor(bad)).toBe('invaliddata');
      expect(bad.body.statusInfoSet[0].imsx_description).toMatch(/not a usable OneRoster CSV package/);
      const json = await post(app, tenant, '{}', admin, 'application/json');
      expect(json.status).toBe(415);
      const big = await post(app, tenant, Buffer.alloc(300_000, 1));
      expect(big.status).toBe(413);
      const unknown = await post(app, '0f0e0d0c-0b0a-4909-8807-060504030201', await packageZip(schoolPackage()));
      expect(unknown.status).toBe(404);
      expect(minor(unknown)).toBe('unknownobject');
      const notUuid = await request(app.getHttpServer())
        .get(`/admin/tenants/${tenant}/roster-imports/nope`)
        .set('Authorization', `Bearer ${admin}`);
      expect(notUuid.status).toBe(404);
      const { rows } = await client.query('SELECT count(*)::int AS n FROM roster_imports WHERE tenant_id = $1', [
        tenant,
      ]);
      expect(rows[0].n).toBe(0);
    });

    it('fails an import whose process went quiet (killed while importing), not one whose process still speaks', async () => {
      const tenant = await newTenant();
      const running = async (heartbeat: string) =>
        (
          await client.query(
            `INSERT INTO roster_imports (tenant_id, status, source, started_at, heartbeat_at)
             VALUES ($1, 'running', 'operator upload (1 bytes)', now() - interval '5 minutes', now() - $2::interval) RETURNING id`,
            [tenant, heartbeat],
          )
        ).rows[0].id as string;
      const [quiet, speaking] = [await running('2 minutes'), await running('1 second')];
      expect(await app.get(RosterImportsService).failAbandoned()).toBeGreaterThanOrEqual(1);
      const view = async (id: string) =>
        (
          await request(app.getHttpServer())
            .get(`/admin/tenants/${tenant}/roster-imports/${id}`)
            .set('Authorization', `Bearer ${admin}`)
            .expect(200)
        ).body.import;
      expect(await view(quiet)).toMatchObject({
        status: 'failed',
        errors: [expect.objectContaining({ message: expect.stringContaining('stopped without finishing') })],
      });
      expect(await view(speaking)).toMatchObject({ status: 'running' });
    });

    it('accepts a package as a job (202) when it does not finish in time, then reports it', async () => {
      const tenant = await newTenant();
      const res = await post(asyncApp, tenant, await packageZip(schoolPackage()));
      expect(res.status).toBe(202);
      expect(res.body.import).toMatchObject({ status: 'running', tenant_id: tenant });
      let status = 'running';
      let body: Record<string, unknown> = {};
      for (let i = 0; i < 100 && status === 'running'; i++) {
        await new Promise((r) => setTimeout(r, 100));
        body = (
          await request(asyncApp.getHttpServer())
            .get(res.headers['location']!)
            .set('Authorization', `Bearer ${admin}`)
            .expect(200)
        ).body.import;
        status = body.status as string;
      }
      expect(body).toMatchObject({ status: 'succeeded', data_version: '1' });
    });
  });
});
