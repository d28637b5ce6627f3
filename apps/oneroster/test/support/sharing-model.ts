/**
 * An independent model of data sharing (the closure in libs/sharing/README.md), written in plain
 * code over a fixture's records, without the SQL: which objects of each class a sharing spec lets
 * an app see. Statuses do not matter to sharing (a tombstoned class still shares its tombstone).
 */
import { RosterModel, type Rec } from './expected';
import type { RosterFixture } from './roster-fixture';

export interface ModelRule {
  readonly object: 'class' | 'user';
  readonly field: string;
  readonly op: 'is' | 'is_not' | 'contains' | 'starts_with' | 'in';
  readonly value: string | string[];
}

export interface ModelSpec {
  readonly mode: 'all' | 'schools' | 'classes' | 'rules';
  readonly schools?: string[];
  readonly classes?: string[];
  readonly rules?: ModelRule[];
  readonly withhold?: string[];
}

/** Visible sourcedIds per class, by the names the API's collections use. */
export type Visible = Record<
  'org' | 'academicSession' | 'course' | 'class' | 'enrollment' | 'user' | 'demographics',
  Set<string>
>;

const cells = (v: string | undefined): string[] =>
  v
    ? v
        .split(',')
        .map((s) => s.trim())
        .filter(Boolean)
    : [];

/** Where each rule field lives in the CSV, and whether it is a list and compares case-insensitively. */
const FIELDS: Record<string, { cell: string; list: boolean; ci: boolean }> = {
  'class.school': { cell: 'schoolSourcedId', list: false, ci: false },
  'class.course': { cell: 'courseSourcedId', list: false, ci: false },
  'class.term': { cell: 'termSourcedIds', list: true, ci: false },
  'class.subject': { cell: 'subjects', list: true, ci: true },
  'class.subjectCode': { cell: 'subjectCodes', list: true, ci: true },
  'class.grade': { cell: 'grades', list: true, ci: true },
  'class.title': { cell: 'title', list: false, ci: true },
  'class.classCode': { cell: 'classCode', list: false, ci: true },
  'class.classType': { cell: 'classType', list: false, ci: true },
  'class.location': { cell: 'location', list: false, ci: true },
  'user.role': { cell: 'role', list: false, ci: true },
  'user.school': { cell: 'orgSourcedIds', list: true, ci: false },
  'user.grade': { cell: 'grades', list: true, ci: true },
  'user.email': { cell: 'email', list: false, ci: true },
  'user.username': { cell: 'username', list: false, ci: true },
  'user.identifier': { cell: 'identifier', list: false, ci: true },
  'user.givenName': { cell: 'givenName', list: false, ci: true },
  'user.familyName': { cell: 'familyName', list: false, ci: true },
};

/** Whether one record satisfies one rule (an empty cell is no value). */
export function ruleHolds(rule: ModelRule, rec: Rec): boolean {
  const f = FIELDS[`${rule.object}.${rule.field}`];
  if (!f) throw new Error(`model knows no field ${rule.object}.${rule.field}`);
  const raw = rec.row[f.cell] ?? '';
  const values = (f.list ? cells(raw) : raw === '' ? [] : [raw]).map((v) => (f.ci ? v.toLowerCase() : v));
  const norm = (v: string) => (f.ci ? v.toLowerCase() : v);
  const one = (test: (v: string) => boolean) => values.some(test);
  switch (rule.op) {
    case 'is':
      return one((v) => v === norm(rule.value as string));
    case 'is_not':
      return !one((v) => v === norm(rule.value as string));
    case 'contains':
      return one((v) => v.includes(norm(rule.value as string)));
    case 'starts_with':
      return one((v) => v.startsWith(norm(rule.value as string)));
    case 'in':
      return one((v) => (rule.value as string[]).map(norm).includes(v));
  }
}

export class SharingModel {
  readonly roster: RosterModel;

  constructor(fixture: RosterFixture) {
    this.roster = new RosterModel(fixture);
  }

  private recs(file: Parameters<RosterModel['records']>[0]): Rec[] {
    return this.roster.records(file);
  }

  /** Every object of every class (mode `all`), orgs limited to the tenant's tree. */
  everything(): Visible {
    const all = (file: Parameters<RosterModel['records']>[0]) => new Set(this.recs(file).map((r) => r.id));
    return {
      org: new Set([...all('orgs')].filter((id) => this.roster.visibleOrgs().has(id))),
      academicSession: all('academicSessions'),
      course: all('courses'),
      class: all('classes'),
      enrollment: all('enrollments'),
      user: all('users'),
      demographics: all('demographics'),
    };
  }

  visible(spec: ModelSpec): Visible {
    if (spec.mode === 'all') return this.everything();
    const tree = this.roster.visibleOrgs();
    const orgs = this.recs('orgs');
    const schools = new Set(
      (spec.schools ?? []).filter((id) => tree.has(id) && orgs.some((o) => o.id === id && o.row.type === 'school')),
    );
    const rules = spec.rules ?? [];
    const classRules = rules.filter((r) => r.object === 'class');
    const userRules = rules.filter((r) => r.object === 'user');
    const users = this.recs('users');
    const matchUser = (id: string) => {
      const u = users.find((x) => x.id === id);
      return u !== undefined && userRules.every((r) => ruleHolds(r, u));
    };
    const enrollments = this.recs('enrollments');
    const classes = new Set(
      this.recs('classes')
        .filter((k) => {
          if (spec.mode === 'schools') return schools.has(k.row.schoolSourcedId as string);
          if (spec.mode === 'classes') return (spec.classes ?? []).includes(k.id);
          if (classRules.length > 0) return classRules.every((r) => ruleHolds(r, k));
          return enrollments.some((e) => e.row.classSourcedId === k.id && matchUser(e.row.userSourcedId as string));
        })
        .map((k) => k.id),
    );
    const shownEnrollments = enrollments.filter(
      (e) =>
        classes.has(e.row.classSourcedId as string) &&
        (spec.mode !== 'rules' || userRules.length === 0 || matchUser(e.row.userSourcedId as string)),
    );
    const enrolled = new Set(shownEnrollments.map((e) => e.row.userSourcedId as string));
    const shownUsers = users.filter(
      (u) =>
        enrolled.has(u.id) ||
        (spec.mode === 'schools' && cells(u.row.orgSourcedIds).some((o) => schools.has(o))) ||
        (spec.mode === 'rules' && classRules.length === 0 && matchUser(u.id)),
    );
    const userIds = new Set(shownUsers.map((u) => u.id));
    return this.closure(spec, schools, classes, new Set(shownEnrollments.map((e) => e.id)), userIds);
  }

  /** Courses, sessions, orgs and demographics that follow from the shared classes, schools and people. */
  private closure(
    spec: ModelSpec,
    schools: Set<string>,
    classes: Set<string>,
    enrollments: Set<string>,
    users: Set<string>,
  ): Visible {
    const classRecs = this.recs('classes').filter((k) => classes.has(k.id));
    const courses = new Set(
      this.recs('courses')
        .filter(
          (c) =>
            classRecs.some((k) => k.row.courseSourcedId === c.id) ||
            (spec.mode === 'schools' && schools.has(c.row.orgSourcedId as string)),
        )
        .map((c) => c.id),
    );
    const courseRecs = this.recs('courses').filter((c) => courses.has(c.id));
    const sessions = this.recs('academicSessions');
    const parentOf = new Map(sessions.map((s) => [s.id, s.row.parentSourcedId ?? '']));
    const terms = new Set(classRecs.flatMap((k) => cells(k.row.termSourcedIds)));
    const shownSessions = new Set<string>();
    const up = [...terms, ...courseRecs.map((c) => c.row.schoolYearSourcedId ?? '').filter(Boolean)];
    for (let id = up.pop(); id !== undefined; id = up.pop()) {
      if (shownSessions.has(id) || !parentOf.has(id)) continue;
      shownSessions.add(id);
      if (parentOf.get(id)) up.push(parentOf.get(id) as string);
    }
    const down = [...terms];
    for (let id = down.pop(); id !== undefined; id = down.pop()) {
      if (parentOf.has(id)) shownSessions.add(id);
      for (const s of sessions) if (s.row.parentSourcedId === id && !shownSessions.has(s.id)) down.push(s.id);
    }
    const tree = this.roster.visibleOrgs();
    const orgParent = new Map(this.recs('orgs').map((o) => [o.id, o.row.parentSourcedId ?? '']));
    const shownOrgs = new Set<string>();
    const seeds = [
      ...(spec.mode === 'schools' ? schools : []),
      ...classRecs.map((k) => k.row.schoolSourcedId as string),
      ...courseRecs.map((c) => c.row.orgSourcedId as string),
    ];
    for (let id = seeds.pop(); id !== undefined; id = seeds.pop()) {
      if (shownOrgs.has(id) || !orgParent.has(id)) continue;
      shownOrgs.add(id);
      if (orgParent.get(id)) seeds.push(orgParent.get(id) as string);
    }
    return {
      org: new Set([...shownOrgs].filter((id) => tree.has(id))),
      academicSession: shownSessions,
      course: courses,
      class: classes,
      enrollment: enrollments,
      user: users,
      demographics: new Set(
        this.recs('demographics')
          .filter((d) => users.has(d.id))
          .map((d) => d.id),
      ),
    };
  }
}
