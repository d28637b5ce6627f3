/**
 * Loads a fixture straight into the roster tables, doing what the importer does (ordinals in
 * sourcedId byte order, partition ordinals, role groups, tombstones, a new data version). Used
 * where a spec needs exact control over stored values (e.g. `dateLastModified`).
 */
import { Client } from 'pg';
import { FIXTURE_FILES, type CsvRow, type FixtureFile, type RosterFixture } from './roster-fixture';

type Value = string | boolean | string[] | null;

const list = (v: string | undefined): string[] => (v ? v.split(',').map((s) => s.trim()).filter(Boolean) : []);
const opt = (v: string | undefined): string | null => (v === undefined || v === '' ? null : v);
const bool = (v: string | undefined): boolean | null => (v === undefined || v === '' ? null : v.toLowerCase() === 'true');

const STAFF = new Set(['teacher', 'administrator', 'aide', 'proctor']);

function userIds(cell: string | undefined): string {
  const items = (cell ?? '').match(/\{[^}]*\}/g) ?? [];
  return JSON.stringify(
    items.map((item) => {
      const inner = item.slice(1, -1);
      const i = inner.indexOf(':');
      return { type: inner.slice(0, i), identifier: inner.slice(i + 1) };
    }),
  );
}

const MAPPERS: Record<FixtureFile, { table: string; map: (r: CsvRow) => Record<string, Value> }> = {
  orgs: { table: 'roster_orgs', map: (r) => ({ name: r.name, type: r.type, identifier: opt(r.identifier), parent_sourced_id: opt(r.parentSourcedId) }) },
  academicSessions: {
    table: 'roster_academic_sessions',
    map: (r) => ({ title: r.title, type: r.type, start_date: r.startDate, end_date: r.endDate, parent_sourced_id: opt(r.parentSourcedId), school_year: r.schoolYear }),
  },
  courses: {
    table: 'roster_courses',
    map: (r) => ({
      title: r.title, course_code: opt(r.courseCode), school_year_sourced_id: opt(r.schoolYearSourcedId), org_sourced_id: r.orgSourcedId,
      grades: list(r.grades), subjects: list(r.subjects), subject_codes: list(r.subjectCodes),
    }),
  },
  classes: {
    table: 'roster_classes',
    map: (r) => ({
      title: r.title, class_code: opt(r.classCode), class_type: r.classType, location: opt(r.location), course_sourced_id: r.courseSourcedId,
      school_sourced_id: r.schoolSourcedId, term_sourced_ids: list(r.termSourcedIds), grades: list(r.grades), subjects: list(r.subjects),
      subject_codes: list(r.subjectCodes), periods: list(r.periods),
    }),
  },
  users: {
    table: 'roster_users',
    map: (r) => ({
      username: r.username, enabled_user: bool(r.enabledUser) ?? true, given_name: r.givenName, family_name: r.familyName, middle_name: opt(r.middleName),
      role: r.role, identifier: opt(r.identifier), email: opt(r.email), sms: opt(r.sms), phone: opt(r.phone), org_sourced_ids: list(r.orgSourcedIds),
      agent_sourced_ids: list(r.agentSourcedIds), grades: list(r.grades), user_ids: userIds(r.userIds),
      role_group: r.role === 'student' ? 'student' : STAFF.has(r.role as string) ? 'staff' : 'other',
    }),
  },
  enrollments: {
    table: 'roster_enrollments',
    map: (r) => ({
      class_sourced_id: r.classSourcedId, school_sourced_id: r.schoolSourcedId, user_sourced_id: r.userSourcedId, role: r.role,
      primary: bool(r.primary), begin_date: opt(r.beginDate), end_date: opt(r.endDate),
    }),
  },
  demographics: {
    table: 'roster_demographics',
    map: (r) => ({
      birth_date: opt(r.birthDate), sex: opt(r.sex), american_indian_or_alaska_native: bool(r.americanIndianOrAlaskaNative), asian: bool(r.asian),
      black_or_african_american: bool(r.blackOrAfricanAmerican), native_hawaiian_or_other_pacific_islander: bool(r.nativeHawaiianOrOtherPacificIslander),
      white: bool(r.white), demographic_race_two_or_more_races: bool(r.demographicRaceTwoOrMoreRaces), hispanic_or_latino_ethnicity: bool(r.hispanicOrLatinoEthnicity),
      country_of_birth_code: opt(r.countryOfBirthCode), state_of_birth_abbreviation: opt(r.stateOfBirthAbbreviation), city_of_birth: opt(r.cityOfBirth),
      public_school_residence_status: opt(r.publicSchoolResidenceStatus),
    }),
  },
};

const byteOrder = (a: string, b: string): number => Buffer.compare(Buffer.from(a, 'utf8'), Buffer.from(b, 'utf8'));

export interface SqlLoadOptions {
  /** dateLastModified of the n-th row of a file (default: 2024-08-20T14:00:00Z + n minutes). */
  modifiedAt?: (file: FixtureFile, index: number) => Date;
}

/** Replaces the tenant's roster data with the fixture (tombstoned rows stored as `tobedeleted`). */
export async function loadFixtureWithSql(databaseUrl: string, tenantId: string, fixture: RosterFixture, o: SqlLoadOptions = {}): Promise<void> {
  const modifiedAt = o.modifiedAt ?? ((_f: FixtureFile, i: number) => new Date(Date.UTC(2024, 7, 20, 14, i, 0)));
  const client = new Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    await client.query('BEGIN');
    for (const file of FIXTURE_FILES) {
      const { table, map } = MAPPERS[file];
      await client.query(`DELETE FROM ${table} WHERE tenant_id = $1`, [tenantId]);
      const records = fixture.rows.filter((r) => r.file === file);
      const sorted = [...records].sort((a, b) => byteOrder(a.row.sourcedId as string, b.row.sourcedId as string));
      const partition = new Map<string, number>();
      for (const [ordinal, rec] of sorted.entries()) {
        const values = map(rec.row);
        const row: Record<string, Value | number | Date> = {
          tenant_id: tenantId,
          sourced_id: rec.row.sourcedId as string,
          status: rec.tombstone ? 'tobedeleted' : 'active',
          date_last_modified: modifiedAt(file, records.indexOf(rec)),
          metadata: null,
          ordinal,
          ...values,
        };
        if (file === 'users' || file === 'academicSessions') {
          const key = String(file === 'users' ? values.role_group : values.type);
          const n = partition.get(key) ?? 0;
          partition.set(key, n + 1);
          row[file === 'users' ? 'group_ordinal' : 'type_ordinal'] = n;
        }
        const cols = Object.keys(row);
        await client.query(
          `INSERT INTO ${table} (${cols.map((c) => `"${c}"`).join(', ')}) VALUES (${cols.map((_, i) => `$${i + 1}`).join(', ')})`,
          cols.map((c) => row[c]),
        );
      }
    }
    await client.query(
      `INSERT INTO roster_data_versions (tenant_id, version, imported_at) VALUES ($1, 1, now())
       ON CONFLICT (tenant_id) DO UPDATE SET version = roster_data_versions.version + 1, imported_at = now()`,
      [tenantId],
    );
    await client.query('COMMIT');
  } catch (err) {
    await client.query('ROLLBACK');
    throw err;
  } finally {
    await client.end();
  }
}
