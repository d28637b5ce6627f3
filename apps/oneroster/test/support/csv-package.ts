/**
 * Roster CSV packages for importer tests: a small valid package as editable rows, written to a
 * folder or to a zip (stored entries, written here so tests need no archiver).
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { ZipFile } from 'yazl';
import { FILE_LAYOUTS, standardHeaders, type V1p1FileType } from '../../src/imports/csv-layout';

export type Rows = Record<string, string>[];

/** A package: manifest entries and, per file name, its header and rows (cells by column name). */
export interface CsvPackage {
  manifest: [string, string][];
  files: Record<string, { header: string[]; rows: Rows }>;
}

const MANIFEST_DEFAULTS: [string, string][] = [
  ['manifest.version', '1.0'],
  ['oneroster.version', '1.1'],
  ['file.academicSessions', 'bulk'],
  ['file.categories', 'absent'],
  ['file.classes', 'bulk'],
  ['file.classResources', 'absent'],
  ['file.courses', 'bulk'],
  ['file.courseResources', 'absent'],
  ['file.demographics', 'bulk'],
  ['file.enrollments', 'bulk'],
  ['file.lineItems', 'absent'],
  ['file.orgs', 'bulk'],
  ['file.resources', 'absent'],
  ['file.results', 'absent'],
  ['file.users', 'bulk'],
  ['source.systemName', 'Test SIS'],
];

const file = (type: V1p1FileType, rows: Rows) => ({ header: standardHeaders(FILE_LAYOUTS[type]), rows });

/**
 * District `org-d` with schools `org-s1`, `org-s2`; a school year, two terms, a grading period;
 * two courses, two classes; a teacher, two students, a parent; three enrollments; demographics
 * for one student.
 */
export function schoolPackage(): CsvPackage {
  return {
    manifest: MANIFEST_DEFAULTS.map(([k, v]) => [k, v]),
    files: {
      'orgs.csv': file('orgs', [
        { sourcedId: 'org-d', name: 'North District', type: 'district', identifier: 'D-1' },
        { sourcedId: 'org-s1', name: 'Hill School', type: 'school', identifier: 'S-1', parentSourcedId: 'org-d' },
        { sourcedId: 'org-s2', name: 'Vale School', type: 'School', identifier: 'S-2', parentSourcedId: 'org-d' },
      ]),
      'academicSessions.csv': file('academicSessions', [
        {
          sourcedId: 'as-y',
          title: '2025',
          type: 'schoolYear',
          startDate: '2025-01-28',
          endDate: '2025-12-19',
          schoolYear: '2025',
        },
        {
          sourcedId: 'as-t1',
          title: 'Term 1',
          type: 'term',
          startDate: '2025-01-28',
          endDate: '2025-04-11',
          parentSourcedId: 'as-y',
          schoolYear: '2025',
        },
        {
          sourcedId: 'as-t2',
          title: 'Term 2',
          type: 'term',
          startDate: '2025-04-28',
          endDate: '2025-07-04',
          parentSourcedId: 'as-y',
          schoolYear: '2025',
        },
        {
          sourcedId: 'as-gp1',
          title: 'Term 1 Weeks 1-5',
          type: 'gradingPeriod',
          startDate: '2025-01-28',
          endDate: '2025-02-28',
          parentSourcedId: 'as-t1',
          schoolYear: '2025',
        },
      ]),
      'courses.csv': file('courses', [
        {
          sourcedId: 'crs-1',
          schoolYearSourcedId: 'as-y',
          title: 'Mathematics 7',
          courseCode: 'MAT7',
          grades: '07',
          orgSourcedId: 'org-s1',
          subjects: 'Mathematics',
          subjectCodes: '02052',
        },
        { sourcedId: 'crs-2', title: 'English 8', orgSourcedId: 'org-s2' },
      ]),
      'classes.csv': file('classes', [
        {
          sourcedId: 'cls-1',
          title: 'Maths 7A',
          grades: '07',
          courseSourcedId: 'crs-1',
          classCode: '7A',
          classType: 'Scheduled',
          location: 'B12',
          schoolSourcedId: 'org-s1',
          termSourcedIds: 'as-t1,as-t2',
          periods: '1,3',
        },
        {
          sourcedId: 'cls-2',
          title: 'English 8B',
          courseSourcedId: 'crs-2',
          classType: 'homeroom',
          schoolSourcedId: 'org-s2',
          termSourcedIds: 'as-t1',
        },
      ]),
      'users.csv': file('users', [
        {
          sourcedId: 'usr-p1',
          enabledUser: 'false',
          orgSourcedIds: 'org-s1',
          role: 'parent',
          username: 'pat.parent',
          givenName: 'Pat',
          familyName: 'Nguyen',
          agentSourcedIds: 'usr-s1',
          password: 'never-stored',
        },
        {
          sourcedId: 'usr-s1',
          enabledUser: 'TRUE',
          orgSourcedIds: 'org-s1',
          role: 'Student',
          username: 'sam.student',
          userIds: '{SIS:1001},{LDAP:uid=sam}',
          givenName: 'Sam',
          familyName: 'Nguyen',
          identifier: '1001',
          email: 'sam@school.example',
          agentSourcedIds: 'usr-p1',
          grades: '7',
        },
        {
          sourcedId: 'usr-s2',
          enabledUser: 'true',
          orgSourcedIds: 'org-s2',
          role: 'student',
          username: 'ali.student',
          givenName: 'Ali',
          familyName: 'Rahman',
          grades: '08',
        },
        {
          sourcedId: 'usr-t1',
          enabledUser: 'true',
          orgSourcedIds: 'org-s1,org-s2',
          role: 'teacher',
          username: 'tess.teacher',
          givenName: 'Tess',
          familyName: 'Ong',
          email: 'tess@school.example',
        },
      ]),
      'enrollments.csv': file('enrollments', [
        {
          sourcedId: 'enr-1',
          classSourcedId: 'cls-1',
          schoolSourcedId: 'org-s1',
          userSourcedId: 'usr-t1',
          role: 'teacher',
          primary: 'true',
          beginDate: '2025-01-28',
        },
        {
          sourcedId: 'enr-2',
          classSourcedId: 'cls-1',
          schoolSourcedId: 'org-s1',
          userSourcedId: 'usr-s1',
          role: 'student',
        },
        {
          sourcedId: 'enr-3',
          classSourcedId: 'cls-2',
          schoolSourcedId: 'org-s2',
          userSourcedId: 'usr-s2',
          role: 'student',
          endDate: '2025-06-30',
        },
      ]),
      'demographics.csv': file('demographics', [
        {
          sourcedId: 'usr-s1',
          birthDate: '2012-03-04',
          sex: 'Female',
          asian: 'true',
          white: 'false',
          cityOfBirth: 'Sydney',
        },
      ]),
    },
  };
}

/** A users.csv row of a student at org-s1 named after its sourcedId, for tests that need many users. */
export function bulkStudent(sourcedId: string, status = 'active'): Record<string, string> {
  return {
    sourcedId,
    status,
    dateLastModified: '2025-06-01T00:00:00Z',
    enabledUser: 'true',
    orgSourcedIds: 'org-s1',
    role: 'student',
    username: sourcedId,
    givenName: 'Bulk',
    familyName: sourcedId,
  };
}

export function clonePackage(p: CsvPackage): CsvPackage {
  return JSON.parse(JSON.stringify(p)) as CsvPackage;
}

/** Sets the mode of a file in the manifest (`absent` also removes the file). */
export function setMode(p: CsvPackage, type: V1p1FileType, mode: 'bulk' | 'delta' | 'absent'): void {
  const entry = p.manifest.find(([k]) => k === `file.${type}`)!;
  entry[1] = mode;
  if (mode === 'absent') delete p.files[FILE_LAYOUTS[type].fileName];
}

function cell(value: string): string {
  return /[",\r\n]/.test(value) ? `"${value.replace(/"/g, '""')}"` : value;
}

export function csvText(header: string[], rows: Rows, eol = '\n'): string {
  return (
    [header.map(cell).join(','), ...rows.map((r) => header.map((h) => cell(r[h] ?? '')).join(','))].join(eol) + eol
  );
}

export function packageFiles(p: CsvPackage): Record<string, string> {
  const out: Record<string, string> = {
    'manifest.csv': csvText(
      ['propertyName', 'value'],
      p.manifest.map(([propertyName, value]) => ({ propertyName, value })),
    ),
  };
  for (const [name, f] of Object.entries(p.files)) out[name] = csvText(f.header, f.rows);
  return out;
}

/** Writes the package as a folder; `raw` replaces whole files by exact text. */
export function writeFolder(p: CsvPackage, raw: Record<string, string | Buffer> = {}): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'roster-pkg-'));
  for (const [name, text] of Object.entries({ ...packageFiles(p), ...raw })) writeFileSync(path.join(dir, name), text);
  return dir;
}

/** A zip of named files (written with yazl, read back by the importer with yauzl). */
export async function zipBuffer(files: Record<string, string | Buffer>): Promise<Buffer> {
  const zip = new ZipFile();
  for (const [name, content] of Object.entries(files))
    zip.addBuffer(Buffer.isBuffer(content) ? content : Buffer.from(content, 'utf8'), name);
  zip.end();
  const chunks: Buffer[] = [];
  for await (const chunk of zip.outputStream) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

export function packageZip(p: CsvPackage, raw: Record<string, string | Buffer> = {}): Promise<Buffer> {
  return zipBuffer({ ...packageFiles(p), ...raw });
}

/**
 * `schoolPackage()` plus the resources and gradebook files, all bulk: resources `res-1`, `res-2`
 * used by classes `cls-1`/`cls-2` and course `crs-1`; categories `cat-1`, `cat-2`; line items
 * `li-1` (cls-1) and `li-2` (cls-2); results `rs-1` (graded) and `rs-2` (exempt, no score).
 */
export function fullPackage(): CsvPackage {
  const p = schoolPackage();
  for (const type of [
    'resources',
    'classResources',
    'courseResources',
    'categories',
    'lineItems',
    'results',
  ] as const) {
    p.manifest.find(([k]) => k === `file.${type}`)![1] = 'bulk';
  }
  Object.assign(p.files, {
    'resources.csv': file('resources', [
      {
        sourcedId: 'res-1',
        vendorResourceId: 'VR-100',
        title: 'Algebra e-book',
        roles: 'Student,teacher',
        importance: 'Primary',
        vendorId: 'ACME',
        applicationId: 'app-9',
      },
      { sourcedId: 'res-2', vendorResourceId: 'VR-200' },
    ]),
    'classResources.csv': file('classResources', [
      { sourcedId: 'cr-1', title: 'Main text', classSourcedId: 'cls-1', resourceSourcedId: 'res-1' },
      { sourcedId: 'cr-2', classSourcedId: 'cls-1', resourceSourcedId: 'res-2' },
      { sourcedId: 'cr-3', classSourcedId: 'cls-2', resourceSourcedId: 'res-2' },
    ]),
    'courseResources.csv': file('courseResources', [
      { sourcedId: 'kr-1', courseSourcedId: 'crs-1', resourceSourcedId: 'res-1' },
    ]),
    'categories.csv': file('categories', [
      { sourcedId: 'cat-1', title: 'Homework' },
      { sourcedId: 'cat-2', title: 'Tests' },
    ]),
    'lineItems.csv': file('lineItems', [
      {
        sourcedId: 'li-1',
        title: 'Worksheet 1',
        description: 'Fractions',
        assignDate: '2025-02-03T09:00:00Z',
        dueDate: '2025-02-10T09:00:00.000Z',
        classSourcedId: 'cls-1',
        categorySourcedId: 'cat-1',
        gradingPeriodSourcedId: 'as-gp1',
        resultValueMin: '0',
        resultValueMax: '10',
      },
      {
        sourcedId: 'li-2',
        title: 'Test',
        assignDate: '2025-03-01T10:00:00+11:00',
        dueDate: '2025-03-01T11:00:00+11:00',
        classSourcedId: 'cls-2',
        categorySourcedId: 'cat-2',
        gradingPeriodSourcedId: 'as-t1',
      },
    ]),
    'results.csv': file('results', [
      {
        sourcedId: 'rs-1',
        lineItemSourcedId: 'li-1',
        studentSourcedId: 'usr-s1',
        scoreStatus: 'Fully Graded',
        score: '10.5',
        scoreDate: '2025-02-11',
        comment: 'Well done',
      },
      {
        sourcedId: 'rs-2',
        lineItemSourcedId: 'li-2',
        studentSourcedId: 'usr-s2',
        scoreStatus: 'exempt',
        scoreDate: '2025-03-02',
      },
    ]),
  });
  return p;
}
