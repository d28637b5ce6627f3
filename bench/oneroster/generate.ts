/**
 * Synthetic OneRoster v1.1 CSV package (bulk) of one district, for the rostering benchmark:
 *
 *   node tools/runtime/run-dist.js bench/oneroster/generate --out <dir> [--scale 0.01] [--seed 42]
 *        [--users N] [--schools N] [--classes N] [--enrollments N] [--demographics 0.5]
 *        [--root-org org-district] [--delta-out <dir> --delta-fraction 0.01]
 *
 * Defaults: 1,000,000 users, 50 schools, 40,000 classes, 2,000,000 enrollments (`--scale`
 * multiplies all four). Output is deterministic for a seed and streamed to disk. Users: 80 %
 * students, 5 % teachers, 1 % administrators and aides, the rest parents (each student has one
 * parent as agent). Every class has one primary teacher; the other enrollments are students'.
 * Also usable in-process: `generateRosterPackage(options)`.
 */
import { once } from 'node:events';
import { createWriteStream, mkdirSync, type WriteStream } from 'node:fs';
import * as path from 'node:path';
import { parseArgs } from 'node:util';

export interface GenerateOptions {
  out: string;
  users?: number;
  schools?: number;
  classes?: number;
  enrollments?: number;
  /** Multiplies the four sizes above (defaults or given). */
  scale?: number;
  seed?: number;
  /** Fraction of students with a demographics row (0 = no demographics.csv). */
  demographics?: number;
  /** sourcedId of the district org (the tenant's root org). */
  rootOrg?: string;
  /** Also write a delta package (users.csv only) changing this fraction of the students... */
  deltaFraction?: number;
  /** ...into this directory; their dateLastModified values are one minute apart from DELTA_BASE. */
  deltaOut?: string;
}

/** First dateLastModified of the delta package's rows. */
export const DELTA_BASE = '2026-03-01T00:00:00.000Z';

export interface GenerateSummary {
  out: string;
  rootOrg: string;
  /** Rows per file of the bulk package. */
  counts: Record<string, number>;
  rows: number;
  /** The delta package, when asked for. */
  delta?: { out: string; rows: number; firstModified: string };
  /** Handy values for queries against the generated data. */
  samples: {
    schoolId: string;
    classId: string;
    studentId: string;
    teacherId: string;
    familyName: string;
    termId: string;
  };
}

/** Small, fast, seedable PRNG (mulberry32). */
function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const GIVEN = [
  'Olivia',
  'Noah',
  'Mia',
  'Liam',
  'Ava',
  'Ethan',
  'Zoe',
  'Lucas',
  'Chloe',
  'Leo',
  'Isla',
  'Jack',
  'Grace',
  'Oscar',
  'Ruby',
  'Henry',
  'Wei',
  'Mei',
  'Arjun',
  'Priya',
  'Hiroshi',
  'Yuki',
  'Nur',
  'Aisha',
  'Mateo',
  'Sofia',
  'Kai',
  'Lina',
  'Omar',
  'Hana',
];
const FAMILY_STEMS = [
  'Tan',
  'Lim',
  'Lee',
  'Ng',
  'Wong',
  'Smith',
  'Nguyen',
  'Brown',
  'Wilson',
  'Taylor',
  'Kumar',
  'Singh',
  'Chen',
  'Patel',
  'Martin',
  'Kelly',
  'Walker',
  'Young',
  'Ryan',
  'Hughes',
];
const FAMILY_SUFFIXES = ['', 'ford', 'ley', 'son', 'wood', 'ton', 'field', 'ham', 'more', 'well'];
/** 2,000 distinct family names: a `familyName='…'` filter matches about users / 2,000 rows. */
function familyName(i: number): string {
  const stem = FAMILY_STEMS[i % FAMILY_STEMS.length]!;
  const suffix = FAMILY_SUFFIXES[Math.floor(i / FAMILY_STEMS.length) % FAMILY_SUFFIXES.length]!;
  const n = Math.floor(i / (FAMILY_STEMS.length * FAMILY_SUFFIXES.length)) % 10;
  return `${stem}${suffix}${n === 0 ? '' : ` ${String.fromCharCode(64 + n)}`}`;
}
const FAMILY_COUNT = 2000;
const SUBJECTS = [
  ['Mathematics', '02052'],
  ['English', '01051'],
  ['Science', '03051'],
  ['History', '04051'],
  ['Geography', '04001'],
  ['Art', '05154'],
  ['Music', '05101'],
  ['Physical Education', '08051'],
] as const;
const GRADES = ['KG', '01', '02', '03', '04', '05', '06', '07', '08', '09', '10', '11', '12'];

const pad = (n: number, width: number) => String(n).padStart(width, '0');

/** A CSV writer with backpressure: lines are batched into ~1 MB writes. */
class CsvOut {
  private stream: WriteStream;
  private chunk = '';
  rows = 0;

  constructor(file: string, header: string) {
    this.stream = createWriteStream(file);
    this.chunk = `${header}\n`;
  }

  async line(text: string): Promise<void> {
    this.chunk += `${text}\n`;
    this.rows++;
    if (this.chunk.length > 1 << 20) await this.drain();
  }

  private async drain(): Promise<void> {
    const ok = this.stream.write(this.chunk);
    this.chunk = '';
    if (!ok) await once(this.stream, 'drain');
  }

  async close(): Promise<void> {
    await this.drain();
    this.stream.end();
    await once(this.stream, 'finish');
  }
}

/** The district's sizes, ids and random stream, shared by the writers of its files. */
interface District {
  o: GenerateOptions;
  random: () => number;
  rootOrg: string;
  demoFraction: number;
  nSchools: number;
  nClasses: number;
  nEnrollments: number;
  nTeachers: number;
  nStaff: number;
  nStudents: number;
  nParents: number;
  coursesPerSchool: number;
  /** The school of the i-th of n items (contiguous blocks per school). */
  schoolOf: (i: number, n: number) => number;
  /** First index of a school's block among n items. */
  blockStart: (s: number, n: number) => number;
  file: (name: string) => string;
}

const schoolId = (s: number) => `org-school-${pad(s + 1, 4)}`;
const studentId = (i: number) => `stu-${pad(i + 1, 8)}`;
const parentId = (i: number) => `par-${pad(i + 1, 8)}`;
const teacherId = (i: number) => `tch-${pad(i + 1, 7)}`;
const classId = (c: number) => `cls-${pad(c + 1, 7)}`;
const courseId = (s: number, k: number) => `crs-${pad(s + 1, 4)}-${pad(k + 1, 3)}`;
const given = (i: number) => GIVEN[i % GIVEN.length]!;
const USERS_HEADER =
  'sourcedId,status,dateLastModified,enabledUser,orgSourcedIds,role,username,userIds,givenName,familyName,middleName,identifier,email,sms,phone,agentSourcedIds,grades,password';

function layout(o: GenerateOptions): District {
  const scale = o.scale ?? 1;
  const size = (given: number | undefined, dflt: number, min: number) =>
    Math.max(min, Math.round((given ?? dflt) * scale));
  const nUsers = size(o.users, 1_000_000, 20);
  const nSchools = size(o.schools, 50, 1);
  const nTeachers = Math.max(nSchools, Math.round(nUsers * 0.05));
  const nStaff = Math.max(2, Math.round(nUsers * 0.01));
  const nStudents = Math.max(nSchools, Math.round(nUsers * 0.8));
  return {
    o,
    random: prng(o.seed ?? 42),
    rootOrg: o.rootOrg ?? 'org-district',
    demoFraction: o.demographics ?? 0,
    nSchools,
    nClasses: Math.max(nSchools, size(o.classes, 40_000, 1)),
    nEnrollments: size(o.enrollments, 2_000_000, 1),
    nTeachers,
    nStaff,
    nStudents,
    nParents: Math.max(1, nUsers - nTeachers - nStaff - nStudents),
    coursesPerSchool: SUBJECTS.length * 4,
    schoolOf: (i, n) => Math.min(nSchools - 1, Math.floor((i * nSchools) / n)),
    blockStart: (s, n) => Math.ceil((s * n) / nSchools),
    file: (name) => path.join(o.out, name),
  };
}

export async function generateRosterPackage(o: GenerateOptions): Promise<GenerateSummary> {
  const d = layout(o);
  mkdirSync(o.out, { recursive: true });
  const entries = manifestEntries(d);
  await writeManifest(d.file('manifest.csv'), entries);
  const counts: Record<string, number> = {
    orgs: await writeOrgs(d),
    academicSessions: await writeAcademicSessions(d),
    courses: await writeCourses(d),
    classes: await writeClasses(d),
    users: await writeUsers(d),
    enrollments: await writeEnrollments(d),
  };
  if (d.demoFraction > 0) counts['demographics'] = await writeDemographics(d);
  // Optional delta package: a fraction of students changed at spread-out times, so that after
  // the bulk and then this delta, dateLastModified filters select part of the users.
  const delta =
    o.deltaOut && (o.deltaFraction ?? 0) > 0 ? await writeDelta(d, o.deltaOut, o.deltaFraction!, entries) : undefined;

  const rows = Object.values(counts).reduce((a, b) => a + b, 0);
  return {
    out: o.out,
    rootOrg: d.rootOrg,
    counts,
    rows,
    ...(delta ? { delta } : {}),
    samples: {
      schoolId: schoolId(0),
      classId: classId(0),
      studentId: studentId(0),
      teacherId: teacherId(0),
      familyName: familyName(0),
      termId: 'as-2026-t1',
    },
  };
}

function manifestEntries(d: District): [string, string][] {
  return [
    ['manifest.version', '1.0'],
    ['oneroster.version', '1.1'],
    ['file.academicSessions', 'bulk'],
    ['file.categories', 'absent'],
    ['file.classes', 'bulk'],
    ['file.classResources', 'absent'],
    ['file.courses', 'bulk'],
    ['file.courseResources', 'absent'],
    ['file.demographics', d.demoFraction > 0 ? 'bulk' : 'absent'],
    ['file.enrollments', 'bulk'],
    ['file.lineItems', 'absent'],
    ['file.orgs', 'bulk'],
    ['file.resources', 'absent'],
    ['file.results', 'absent'],
    ['file.users', 'bulk'],
    ['source.systemName', 'edu-platform synthetic district'],
    ['source.systemCode', `seed-${d.o.seed ?? 42}`],
  ];
}

async function writeManifest(file: string, entries: [string, string][]): Promise<void> {
  const manifest = new CsvOut(file, 'propertyName,value');
  for (const [k, v] of entries) await manifest.line(`${k},${v}`);
  await manifest.close();
}

/** The district and its schools; returns the rows written. */
async function writeOrgs(d: District): Promise<number> {
  const orgs = new CsvOut(d.file('orgs.csv'), 'sourcedId,status,dateLastModified,name,type,identifier,parentSourcedId');
  await orgs.line(`${d.rootOrg},,,Synthetic District,district,DIST-0001,`);
  for (let s = 0; s < d.nSchools; s++)
    await orgs.line(`${schoolId(s)},,,Synthetic School ${s + 1},school,SCH-${pad(s + 1, 4)},${d.rootOrg}`);
  await orgs.close();
  return orgs.rows;
}

/** One school year, 4 terms, 2 grading periods per term. */
async function writeAcademicSessions(d: District): Promise<number> {
  const sessions = new CsvOut(
    d.file('academicSessions.csv'),
    'sourcedId,status,dateLastModified,title,type,startDate,endDate,parentSourcedId,schoolYear',
  );
  await sessions.line('as-2026,,,2026 School Year,schoolYear,2026-01-27,2026-12-18,,2026');
  const terms = [
    ['2026-01-27', '2026-04-02', '2026-02-27'],
    ['2026-04-20', '2026-06-26', '2026-05-22'],
    ['2026-07-13', '2026-09-18', '2026-08-14'],
    ['2026-10-06', '2026-12-18', '2026-11-13'],
  ] as const;
  for (let t = 0; t < terms.length; t++) {
    const [start, end, mid] = terms[t]!;
    await sessions.line(`as-2026-t${t + 1},,,Term ${t + 1} 2026,term,${start},${end},as-2026,2026`);
    await sessions.line(
      `as-2026-t${t + 1}-gp1,,,Term ${t + 1} Period 1,gradingPeriod,${start},${mid},as-2026-t${t + 1},2026`,
    );
    await sessions.line(
      `as-2026-t${t + 1}-gp2,,,Term ${t + 1} Period 2,gradingPeriod,${mid},${end},as-2026-t${t + 1},2026`,
    );
  }
  await sessions.close();
  return sessions.rows;
}

/** One course per subject and grade band per school. */
async function writeCourses(d: District): Promise<number> {
  const courses = new CsvOut(
    d.file('courses.csv'),
    'sourcedId,status,dateLastModified,schoolYearSourcedId,title,courseCode,grades,orgSourcedId,subjects,subjectCodes',
  );
  for (let s = 0; s < d.nSchools; s++) {
    for (let k = 0; k < d.coursesPerSchool; k++) {
      const [subject, code] = SUBJECTS[k % SUBJECTS.length]!;
      const band = Math.floor(k / SUBJECTS.length);
      const grades = GRADES.slice(band * 3, band * 3 + 3);
      await courses.line(
        `${courseId(s, k)},,,as-2026,${subject} ${grades[0]}-${grades[grades.length - 1]},${code}-${band + 1},"${grades.join(',')}",${schoolId(s)},${subject},${code}`,
      );
    }
  }
  await courses.close();
  return courses.rows;
}

/** Classes in contiguous blocks per school. */
async function writeClasses(d: District): Promise<number> {
  const classes = new CsvOut(
    d.file('classes.csv'),
    'sourcedId,status,dateLastModified,title,grades,courseSourcedId,classCode,classType,location,schoolSourcedId,termSourcedIds,subjects,subjectCodes,periods',
  );
  for (let c = 0; c < d.nClasses; c++) {
    const s = d.schoolOf(c, d.nClasses);
    const k = (c - d.blockStart(s, d.nClasses)) % d.coursesPerSchool;
    const [subject, code] = SUBJECTS[k % SUBJECTS.length]!;
    const band = Math.floor(k / SUBJECTS.length);
    const grade = GRADES[band * 3 + (c % 3)]!;
    const homeroom = c % 10 === 0;
    const term = (c % 4) + 1;
    const termsCell = c % 3 === 0 ? '"as-2026-t1,as-2026-t2,as-2026-t3,as-2026-t4"' : `as-2026-t${term}`;
    await classes.line(
      `${classId(c)},,,${subject} ${grade} ${String.fromCharCode(65 + (c % 6))},${grade},${courseId(s, k)},${code}-${pad(c + 1, 6)},${homeroom ? 'homeroom' : 'scheduled'},Room ${100 + (c % 60)},${schoolId(s)},${termsCell},${subject},${code},${(c % 8) + 1}`,
    );
  }
  await classes.close();
  return classes.rows;
}

/** A student's users.csv row from `sourcedId` on; `lead` = status and dateLastModified cells. */
function studentRow(d: District, i: number, lead = ',', middle = i % 5 === 0 ? given(i + 1) : ''): string {
  const id = studentId(i);
  const grade = GRADES[i % GRADES.length]!;
  const parent = parentId(i % d.nParents);
  return `${id},${lead},true,${schoolId(d.schoolOf(i, d.nStudents))},student,${id},{SIS:S${pad(i + 1, 8)}},${given(i)},${familyName((i % d.nParents) % FAMILY_COUNT)},${middle},S${pad(i + 1, 8)},${id}@students.example,,,${parent},${grade},`;
}

/** Parents, staff, students and teachers, in sourcedId order (par < stf < stu < tch) as SIS exports usually are. */
async function writeUsers(d: District): Promise<number> {
  const users = new CsvOut(d.file('users.csv'), USERS_HEADER);
  for (let i = 0; i < d.nParents; i++) {
    const id = parentId(i);
    await users.line(
      `${id},,,false,${schoolId(d.schoolOf(i, d.nParents))},parent,${id},,${given(i + 11)},${familyName(i % FAMILY_COUNT)},,,${id}@home.example,+6590${pad(i % 1_000_000, 6)},,,,`,
    );
  }
  for (let i = 0; i < d.nStaff; i++) {
    const s = d.schoolOf(i, d.nStaff);
    const role = i % 3 === 0 ? 'administrator' : 'aide';
    const id = `stf-${pad(i + 1, 6)}`;
    await users.line(
      `${id},,,true,${schoolId(s)},${role},${id},{SIS:${id}},${given(i + 7)},${familyName(i * 7)},,${id.toUpperCase()},${id}@district.example,,,,,`,
    );
  }
  for (let i = 0; i < d.nStudents; i++) await users.line(studentRow(d, i));
  for (let i = 0; i < d.nTeachers; i++) {
    const s = d.schoolOf(i, d.nTeachers);
    const id = teacherId(i);
    await users.line(
      `${id},,,true,${schoolId(s)},teacher,${id},"{SIS:${id}},{LDAP:uid=${id}}",${given(i + 3)},${familyName(i * 13)},,T${pad(i + 1, 7)},${id}@district.example,,+65 6${pad(i % 10_000_000, 7)},,,`,
    );
  }
  await users.close();
  return users.rows;
}

/** Each class's primary teacher, then students spread over their school's classes. */
async function writeEnrollments(d: District): Promise<number> {
  const enrollments = new CsvOut(
    d.file('enrollments.csv'),
    'sourcedId,status,dateLastModified,classSourcedId,schoolSourcedId,userSourcedId,role,primary,beginDate,endDate',
  );
  let e = 0;
  const enrollmentId = () => `enr-${pad(++e, 9)}`;
  for (let c = 0; c < d.nClasses && e < d.nEnrollments; c++) {
    const s = d.schoolOf(c, d.nClasses);
    const first = d.blockStart(s, d.nTeachers);
    const span = Math.max(1, d.blockStart(s + 1, d.nTeachers) - first);
    await enrollments.line(
      `${enrollmentId()},,,${classId(c)},${schoolId(s)},${teacherId(first + (c % span))},teacher,true,2026-01-27,`,
    );
  }
  const studentEnrollments = d.nEnrollments - e;
  for (let k = 0; k < studentEnrollments; k++) {
    const i = k % d.nStudents;
    const round = Math.floor(k / d.nStudents);
    const s = d.schoolOf(i, d.nStudents);
    const first = d.blockStart(s, d.nClasses);
    const span = Math.max(1, d.blockStart(s + 1, d.nClasses) - first);
    // A distinct class per round for the same student (rounds < span keep enrollments unique).
    const c = first + ((Math.floor(d.random() * span) + round * 7919) % span);
    const ended = d.random() < 0.05;
    await enrollments.line(
      `${enrollmentId()},,,${classId(c)},${schoolId(s)},${studentId(i)},student,,2026-01-27,${ended ? '2026-06-26' : ''}`,
    );
  }
  await enrollments.close();
  return enrollments.rows;
}

/** Demographics of every (1 / fraction)-th student. */
async function writeDemographics(d: District): Promise<number> {
  const demo = new CsvOut(
    d.file('demographics.csv'),
    'sourcedId,status,dateLastModified,birthDate,sex,americanIndianOrAlaskaNative,asian,blackOrAfricanAmerican,nativeHawaiianOrOtherPacificIslander,white,demographicRaceTwoOrMoreRaces,hispanicOrLatinoEthnicity,countryOfBirthCode,stateOfBirthAbbreviation,cityOfBirth,publicSchoolResidenceStatus',
  );
  const every = Math.max(1, Math.round(1 / d.demoFraction));
  for (let i = 0; i < d.nStudents; i += every) {
    const year = 2008 + (i % 13);
    const asian = d.random() < 0.6;
    await demo.line(
      `${studentId(i)},,,${year}-${pad((i % 12) + 1, 2)}-${pad((i % 28) + 1, 2)},${i % 2 === 0 ? 'female' : 'male'},false,${asian},false,false,${!asian},false,false,SG,,Singapore,`,
    );
  }
  await demo.close();
  return demo.rows;
}

/** The delta package: users.csv changing every (1 / fraction)-th student. */
async function writeDelta(
  d: District,
  out: string,
  fraction: number,
  entries: [string, string][],
): Promise<NonNullable<GenerateSummary['delta']>> {
  mkdirSync(out, { recursive: true });
  const dm = new CsvOut(path.join(out, 'manifest.csv'), 'propertyName,value');
  for (const [k, v] of entries)
    await dm.line(`${k},${k.startsWith('file.') ? (k === 'file.users' ? 'delta' : 'absent') : v}`);
  await dm.close();
  const du = new CsvOut(path.join(out, 'users.csv'), USERS_HEADER);
  const every = Math.max(1, Math.round(1 / fraction));
  const base = Date.parse(DELTA_BASE);
  let k = 0;
  for (let i = 0; i < d.nStudents; i += every) {
    // One change a minute from DELTA_BASE on.
    await du.line(studentRow(d, i, `active,${new Date(base + k++ * 60_000).toISOString()}`, 'Changed'));
  }
  await du.close();
  return { out, rows: du.rows, firstModified: DELTA_BASE };
}

const NUMBER_FLAGS = {
  scale: 'scale',
  seed: 'seed',
  users: 'users',
  schools: 'schools',
  classes: 'classes',
  enrollments: 'enrollments',
  demographics: 'demographics',
  deltaFraction: 'delta-fraction',
} as const;

/** The command line; throws parseArgs' refusal or a bad value, which the caller prints above the usage. */
function parseCli(argv: string[]): GenerateOptions {
  const numbers = Object.fromEntries(Object.values(NUMBER_FLAGS).map((flag) => [flag, { type: 'string' as const }]));
  const { values } = parseArgs({
    args: argv,
    options: { ...numbers, out: { type: 'string' }, 'root-org': { type: 'string' }, 'delta-out': { type: 'string' } },
  });
  const o: GenerateOptions = { out: values.out ?? '' };
  if (values['root-org'] !== undefined) o.rootOrg = values['root-org'];
  if (values['delta-out'] !== undefined) o.deltaOut = values['delta-out'];
  for (const [key, flag] of Object.entries(NUMBER_FLAGS) as [keyof typeof NUMBER_FLAGS, string][]) {
    const v = (values as Record<string, string | undefined>)[flag];
    if (v === undefined) continue;
    const n = Number(v);
    if (!Number.isFinite(n) || n < 0) throw new Error(`--${flag} needs a non-negative number`);
    o[key] = n;
  }
  if (!o.out) throw new Error('--out <directory> is required');
  return o;
}

if (require.main === module || process.argv[1]?.endsWith(path.join('bench', 'oneroster', 'generate.js'))) {
  let options: GenerateOptions;
  try {
    options = parseCli(process.argv.slice(2));
  } catch (err) {
    console.error(
      `${(err as Error).message}\nusage: generate --out <dir> [--scale 0.01] [--seed 42] [--users N] [--schools N] [--classes N] [--enrollments N] [--demographics F] [--root-org ID] [--delta-out <dir> --delta-fraction F]`,
    );
    process.exit(2);
  }
  const started = Date.now();
  generateRosterPackage(options).then(
    (summary) => {
      console.log(JSON.stringify({ ...summary, seconds: (Date.now() - started) / 1000 }, null, 2));
    },
    (err: unknown) => {
      console.error(err);
      process.exit(1);
    },
  );
}
