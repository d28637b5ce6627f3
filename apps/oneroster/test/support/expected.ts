/**
 * An independent model of the rostering reads over a fixture: what each operation should return,
 * written from the semantics (reference §6, spec 4.2) without looking at the SQL.
 */
import { fileRows, type CsvRow, type FixtureFile, type RosterFixture } from './roster-fixture';

export interface Rec {
  readonly id: string;
  readonly row: CsvRow;
  readonly active: boolean;
}

const STAFF = ['teacher', 'administrator', 'aide', 'proctor'];
const list = (v: string | undefined): string[] =>
  v
    ? v
        .split(',')
        .map((s) => s.trim())
        .filter(Boolean)
    : [];
export const byteOrder = (a: string, b: string): number =>
  Buffer.compare(Buffer.from(a, 'utf8'), Buffer.from(b, 'utf8'));

export class RosterModel {
  constructor(readonly fixture: RosterFixture) {}

  records(file: FixtureFile): Rec[] {
    const all = fileRows(this.fixture, file, { withTombstones: true });
    const live = new Set(fileRows(this.fixture, file, { withTombstones: false }).map((r) => r.sourcedId));
    return all
      .map((row) => ({ id: row.sourcedId as string, row, active: live.has(row.sourcedId as string) }))
      .sort((a, b) => byteOrder(a.id, b.id));
  }

  ids(file: FixtureFile, keep: (r: Rec) => boolean = () => true): string[] {
    return this.records(file)
      .filter(keep)
      .map((r) => r.id);
  }

  /** Root org and every org below it. */
  visibleOrgs(): Set<string> {
    const orgs = this.records('orgs');
    const seen = new Set<string>([this.fixture.rootOrg]);
    let grew = true;
    while (grew) {
      grew = false;
      for (const o of orgs) {
        if (!seen.has(o.id) && o.row.parentSourcedId && seen.has(o.row.parentSourcedId)) {
          seen.add(o.id);
          grew = true;
        }
      }
    }
    return seen;
  }

  isSchool(id: string): boolean {
    return this.visibleOrgs().has(id) && this.records('orgs').some((o) => o.id === id && o.row.type === 'school');
  }

  activeEnrollments(keep: (row: CsvRow) => boolean): CsvRow[] {
    return this.records('enrollments')
      .filter((e) => e.active && keep(e.row))
      .map((e) => e.row);
  }

  /** Expected sourcedIds, in default order, for each collection operation and its path ids. */
  expected(op: string, ids: Record<string, string> = {}): string[] {
    const school = ids.school_id ?? '';
    const id = ids.id ?? '';
    const usersWith = (rows: CsvRow[]) => new Set(rows.map((e) => e.userSourcedId));
    const classesWith = (rows: CsvRow[]) => new Set(rows.map((e) => e.classSourcedId));
    const classInSchool = (cls: string) =>
      this.records('classes').some((c) => c.id === cls && c.row.schoolSourcedId === school);
    switch (op) {
      case 'getAllAcademicSessions':
        return this.ids('academicSessions');
      case 'getAllTerms':
        return this.ids('academicSessions', (r) => r.row.type === 'term');
      case 'getAllGradingPeriods':
        return this.ids('academicSessions', (r) => r.row.type === 'gradingPeriod');
      case 'getAllClasses':
        return this.ids('classes');
      case 'getAllCourses':
        return this.ids('courses');
      case 'getAllDemographics':
        return this.ids('demographics');
      case 'getAllEnrollments':
        return this.ids('enrollments');
      case 'getAllOrgs':
        return this.ids('orgs', (r) => this.visibleOrgs().has(r.id));
      case 'getAllSchools':
        return this.ids('orgs', (r) => this.visibleOrgs().has(r.id) && r.row.type === 'school');
      case 'getAllUsers':
        return this.ids('users');
      case 'getAllStudents':
        return this.ids('users', (r) => r.row.role === 'student');
      case 'getAllTeachers':
        return this.ids('users', (r) => STAFF.includes(r.row.role as string));
      case 'getCoursesForSchool':
        return this.isSchool(school) ? this.ids('courses', (r) => r.row.orgSourcedId === school) : [];
      case 'getClassesForSchool':
        return this.isSchool(school) ? this.ids('classes', (r) => r.row.schoolSourcedId === school) : [];
      case 'getEnrollmentsForSchool':
        return this.isSchool(school) ? this.ids('enrollments', (r) => r.row.schoolSourcedId === school) : [];
      case 'getEnrollmentsForClassInSchool':
        return this.isSchool(school) && classInSchool(ids.class_id as string)
          ? this.ids('enrollments', (r) => r.row.classSourcedId === ids.class_id)
          : [];
      case 'getStudentsForClassInSchool':
      case 'getTeachersForClassInSchool': {
        if (!this.isSchool(school) || !classInSchool(ids.class_id as string)) return [];
        const roles = op === 'getStudentsForClassInSchool' ? ['student'] : STAFF;
        const members = usersWith(
          this.activeEnrollments((e) => e.classSourcedId === ids.class_id && roles.includes(e.role as string)),
        );
        return this.ids('users', (r) => members.has(r.id));
      }
      case 'getStudentsForSchool':
      case 'getTeachersForSchool': {
        if (!this.isSchool(school)) return [];
        const roles = op === 'getStudentsForSchool' ? ['student'] : STAFF;
        const enrolled = usersWith(
          this.activeEnrollments((e) => e.schoolSourcedId === school && roles.includes(e.role as string)),
        );
        return this.ids(
          'users',
          (r) =>
            roles.includes(r.row.role as string) && (list(r.row.orgSourcedIds).includes(school) || enrolled.has(r.id)),
        );
      }
      case 'getTermsForSchool': {
        if (!this.isSchool(school)) return [];
        const used = new Set(
          this.records('classes')
            .filter((c) => c.active && c.row.schoolSourcedId === school)
            .flatMap((c) => list(c.row.termSourcedIds)),
        );
        return this.ids('academicSessions', (r) => r.row.type === 'term' && used.has(r.id));
      }
      case 'getClassesForTerm':
        return this.ids('classes', (r) => list(r.row.termSourcedIds).includes(id));
      case 'getGradingPeriodsForTerm':
        return this.ids('academicSessions', (r) => r.row.type === 'gradingPeriod' && r.row.parentSourcedId === id);
      case 'getClassesForCourse':
        return this.ids('classes', (r) => r.row.courseSourcedId === id);
      case 'getClassesForStudent':
      case 'getClassesForTeacher':
      case 'getClassesForUser': {
        const roles = op === 'getClassesForStudent' ? ['student'] : op === 'getClassesForTeacher' ? STAFF : undefined;
        const classes = classesWith(
          this.activeEnrollments((e) => e.userSourcedId === id && (!roles || roles.includes(e.role as string))),
        );
        return this.ids('classes', (r) => classes.has(r.id));
      }
      case 'getStudentsForClass':
      case 'getTeachersForClass': {
        const roles = op === 'getStudentsForClass' ? ['student'] : STAFF;
        const members = usersWith(
          this.activeEnrollments((e) => e.classSourcedId === id && roles.includes(e.role as string)),
        );
        return this.ids('users', (r) => members.has(r.id));
      }
      default:
        throw new Error(`no model for ${op}`);
    }
  }
}
