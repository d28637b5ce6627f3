/**
 * A generated roster for the data sharing tests: a district (the tenant's root) with three
 * schools, a school outside the tenant's tree, sessions three levels deep, courses, classes with
 * subjects, grades and terms, staff and students enrolled in them, people enrolled nowhere,
 * demographics, and tombstones. Seeded: the same seed gives the same roster.
 */
import type { CsvRow, FixtureFile, FixtureRow, RosterFixture } from './roster-fixture';

/** A small seeded PRNG (mulberry32): tests print the seed so a failure can be replayed. */
export function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export const pick = <T>(rnd: () => number, list: readonly T[]): T => list[Math.floor(rnd() * list.length)] as T;
export const sample = <T>(rnd: () => number, list: readonly T[], n: number): T[] =>
  [...list].sort(() => rnd() - 0.5).slice(0, Math.max(0, Math.min(n, list.length)));

export const SCHOOLS = ['org-s1', 'org-s2', 'org-s3'];
export const SUBJECTS = ['Mathematics', 'Science', 'English', 'Art', 'History'];
export const GRADES = ['07', '08', '09', '10'];
export const TERMS = ['as-t1', 'as-t2'];

const pad = (n: number) => String(n).padStart(3, '0');

function row(file: FixtureFile, cells: CsvRow, tombstone = false): FixtureRow {
  return { file, row: cells, ...(tombstone ? { tombstone: true } : {}) };
}

function orgsAndSessions(): FixtureRow[] {
  const org = (id: string, name: string, type: string, parent: string) =>
    row('orgs', { sourcedId: id, name, type, identifier: id.toUpperCase(), parentSourcedId: parent });
  const session = (id: string, type: string, parent: string, start: string, end: string) =>
    row('academicSessions', {
      sourcedId: id,
      title: id,
      type,
      startDate: start,
      endDate: end,
      parentSourcedId: parent,
      schoolYear: '2025',
    });
  return [
    org('org-d1', 'Lakeside District', 'district', ''),
    org('org-s1', 'Lakeside High', 'school', 'org-d1'),
    org('org-s2', 'Lakeside Middle', 'school', 'org-d1'),
    org('org-s3', 'Lakeside Academy', 'school', 'org-d1'),
    org('org-s1-maths', 'Maths Department', 'department', 'org-s1'),
    org('org-d9', 'Other District', 'district', ''),
    org('org-x1', 'Other School', 'school', 'org-d9'),
    session('as-y1', 'schoolYear', '', '2024-08-01', '2025-07-31'),
    session('as-t1', 'term', 'as-y1', '2024-08-01', '2024-12-20'),
    session('as-t2', 'term', 'as-y1', '2025-01-06', '2025-07-31'),
    session('as-g1', 'gradingPeriod', 'as-t1', '2024-08-01', '2024-10-10'),
    session('as-g2', 'gradingPeriod', 'as-t1', '2024-10-11', '2024-12-20'),
    session('as-g3', 'gradingPeriod', 'as-t2', '2025-01-06', '2025-03-30'),
    session('as-y0', 'schoolYear', '', '2023-08-01', '2024-07-31'),
  ];
}

interface People {
  staff: Map<string, string[]>;
  students: Map<string, string[]>;
}

function user(id: string, role: string, school: string, n: number, rnd: () => number, tombstone = false): FixtureRow {
  const grade = role === 'student' ? pick(rnd, GRADES) : '';
  return row(
    'users',
    {
      sourcedId: id,
      enabledUser: 'true',
      orgSourcedIds: school,
      role,
      username: `${role.slice(0, 3)}${pad(n)}`,
      userIds: n % 3 === 0 ? `{SIS:${5000 + n}}` : '',
      givenName: pick(rnd, ['Ava', 'Liam', 'Mia', 'Noah', 'Zoe', 'Ethan', 'Ruth', 'Omar']),
      familyName: pick(rnd, ['Smith', 'Nguyen', 'Tan', 'Okafor', 'Patel', 'Kim', 'Rossi']),
      middleName: '',
      identifier: String(7000 + n),
      email: n % 9 === 0 ? '' : `${role.slice(0, 3)}${pad(n)}@${n % 2 ? 'Lakeside' : 'lakeside'}.example`,
      sms: n % 4 === 0 ? `+6512345${pad(n)}` : '',
      phone: n % 5 === 0 ? `+6598765${pad(n)}` : '',
      agentSourcedIds: '',
      grades: grade,
      password: '',
    },
    tombstone,
  );
}

function people(rnd: () => number): { rows: FixtureRow[]; people: People } {
  const rows: FixtureRow[] = [];
  const staff = new Map<string, string[]>(SCHOOLS.map((s) => [s, []]));
  const students = new Map<string, string[]>(SCHOOLS.map((s) => [s, []]));
  for (let n = 1; n <= 24; n++) {
    const school = SCHOOLS[n % 3] as string;
    const id = `usr-t-${pad(n)}`;
    rows.push(user(id, n % 8 === 0 ? 'aide' : 'teacher', school, n, rnd, n === 23));
    // A tombstoned user is enrolled nowhere (the second import could not name it).
    if (n !== 23) staff.get(school)?.push(id);
  }
  for (let n = 1; n <= 120; n++) {
    const school = SCHOOLS[n % 3] as string;
    const id = `usr-s-${pad(n)}`;
    rows.push(user(id, 'student', school, n, rnd, n % 37 === 0));
    if (n % 37 !== 0) students.get(school)?.push(id);
  }
  rows.push(user('usr-a-001', 'administrator', 'org-s1', 1, rnd));
  rows.push(user('usr-a-002', 'administrator', 'org-d1', 2, rnd));
  rows.push(user('usr-p-001', 'parent', 'org-s2', 3, rnd));
  rows.push(user('usr-x-001', 'student', 'org-x1', 4, rnd));
  return { rows, people: { staff, students } };
}

function classesAndEnrollments(rnd: () => number, p: People): FixtureRow[] {
  const rows: FixtureRow[] = [];
  for (const school of SCHOOLS)
    for (let c = 1; c <= 3; c++) {
      const subject = SUBJECTS[(c + SCHOOLS.indexOf(school)) % SUBJECTS.length] as string;
      rows.push(
        row('courses', {
          sourcedId: `crs-${school.slice(4)}-${c}`,
          schoolYearSourcedId: c === 3 ? '' : 'as-y1',
          title: `${subject} ${c}`,
          courseCode: `C${c}`,
          grades: pick(rnd, GRADES),
          orgSourcedId: school,
          subjects: subject,
          subjectCodes: '',
        }),
      );
    }
  let enr = 0;
  for (let k = 1; k <= 27; k++) {
    const school = SCHOOLS[k % 3] as string;
    const course = `crs-${school.slice(4)}-${1 + (k % 3)}`;
    const id = `cls-${pad(k)}`;
    const subjects = sample(rnd, SUBJECTS, 1 + Math.floor(rnd() * 2));
    rows.push(
      row(
        'classes',
        {
          sourcedId: id,
          title: `${subjects[0]} ${pick(rnd, GRADES)}${String.fromCharCode(65 + (k % 4))}`,
          grades: sample(rnd, GRADES, 1 + Math.floor(rnd() * 2)).join(','),
          courseSourcedId: course,
          classCode: `${(subjects[0] as string).slice(0, 3).toUpperCase()}-${k}`,
          classType: k % 9 === 0 ? 'homeroom' : 'scheduled',
          location: k % 2 ? `Room ${k}` : '',
          schoolSourcedId: school,
          termSourcedIds: sample(rnd, TERMS, 1 + Math.floor(rnd() * 2)).join(','),
          subjects: subjects.join(','),
          subjectCodes: '',
          periods: '',
        },
        k === 26,
      ),
    );
    const enroll = (user: string, role: string) =>
      rows.push(
        row(
          'enrollments',
          {
            sourcedId: `enr-${pad(++enr)}`,
            classSourcedId: id,
            schoolSourcedId: school,
            userSourcedId: user,
            role,
            primary: role === 'teacher' ? 'true' : '',
            beginDate: '',
            endDate: '',
          },
          // The tombstoned class takes its enrollments with it.
          enr % 41 === 0 || k === 26,
        ),
      );
    for (const t of sample(rnd, p.staff.get(school) ?? [], 1 + Math.floor(rnd() * 2))) enroll(t, 'teacher');
    for (const s of sample(rnd, p.students.get(school) ?? [], 4 + Math.floor(rnd() * 8))) enroll(s, 'student');
  }
  return rows;
}

function demographics(rnd: () => number, users: readonly FixtureRow[]): FixtureRow[] {
  return users
    .filter((u) => u.row.role === 'student' && rnd() < 0.7)
    .map((u) =>
      row(
        'demographics',
        {
          sourcedId: u.row.sourcedId as string,
          birthDate: `2010-0${1 + Math.floor(rnd() * 9)}-1${Math.floor(rnd() * 9)}`,
          sex: pick(rnd, ['female', 'male']),
          americanIndianOrAlaskaNative: '',
          asian: rnd() < 0.5 ? 'true' : 'false',
          blackOrAfricanAmerican: '',
          nativeHawaiianOrOtherPacificIslander: '',
          white: '',
          demographicRaceTwoOrMoreRaces: '',
          hispanicOrLatinoEthnicity: '',
          countryOfBirthCode: 'SG',
          stateOfBirthAbbreviation: '',
          cityOfBirth: 'Singapore',
          publicSchoolResidenceStatus: '',
        },
        u.tombstone === true,
      ),
    );
}

/** The roster of one generated tenant (root `org-d1`). */
export function sharingFixture(seed: number): RosterFixture {
  const rnd = prng(seed);
  const { rows: users, people: p } = people(rnd);
  const rows = [...orgsAndSessions(), ...users, ...classesAndEnrollments(rnd, p), ...demographics(rnd, users)];
  return { name: `sharing-${seed}`, rootOrg: 'org-d1', rows };
}
