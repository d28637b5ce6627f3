/**
 * Data sharing, checked as a property over real HTTP and PostgreSQL: on a generated roster, for
 * many random sharings (every mode, random withholds) activated through the identity API, every
 * OneRoster 1.1 and 1.2 read serves exactly the objects and fields an independent model
 * (`support/sharing-model.ts`) computes, single reads of everything else are 404, and the
 * preview's counts equal what the reads serve. `SHARING_SEED` / `SHARING_RUNS` replay or widen it.
 */
import { SCOPE, PREFIX, RosterHarness, type TenantSetup } from './support/harness';
import { clientCredentialsToken, OPERATOR, startIdentity, type IdentityProcess } from './support/identity-process';
import { loadFixture } from './support/load';
import { pick, prng, sample, sharingFixture } from './support/sharing-fixture';
import { SharingModel, type ModelSpec, type Visible } from './support/sharing-model';
import { randomSpec } from './support/sharing-specs';
import { SCOPE_V1P2, V1P2 } from './support/v1p2';

const SEED = Number(process.env.SHARING_SEED ?? 20261128);
const RUNS = Number(process.env.SHARING_RUNS ?? 200);

type Kind = keyof Visible;
interface Collection {
  readonly path: string;
  readonly key: string;
  readonly op: string;
  readonly kind: Kind;
  /** Its name in the preview. */
  readonly preview?: string;
}

const COLLECTIONS: readonly Collection[] = [
  {
    path: 'academicSessions',
    key: 'academicSessions',
    op: 'getAllAcademicSessions',
    kind: 'academicSession',
    preview: 'academicSessions',
  },
  { path: 'terms', key: 'academicSessions', op: 'getAllTerms', kind: 'academicSession' },
  { path: 'gradingPeriods', key: 'academicSessions', op: 'getAllGradingPeriods', kind: 'academicSession' },
  { path: 'classes', key: 'classes', op: 'getAllClasses', kind: 'class', preview: 'classes' },
  { path: 'courses', key: 'courses', op: 'getAllCourses', kind: 'course', preview: 'courses' },
  {
    path: 'demographics',
    key: 'demographics',
    op: 'getAllDemographics',
    kind: 'demographics',
    preview: 'demographics',
  },
  { path: 'enrollments', key: 'enrollments', op: 'getAllEnrollments', kind: 'enrollment', preview: 'enrollments' },
  { path: 'orgs', key: 'orgs', op: 'getAllOrgs', kind: 'org', preview: 'orgs' },
  { path: 'schools', key: 'orgs', op: 'getAllSchools', kind: 'org', preview: 'schools' },
  { path: 'users', key: 'users', op: 'getAllUsers', kind: 'user', preview: 'users' },
  { path: 'students', key: 'users', op: 'getAllStudents', kind: 'user', preview: 'students' },
  { path: 'teachers', key: 'users', op: 'getAllTeachers', kind: 'user', preview: 'teachers' },
];

const SINGLES: ReadonlyArray<{
  path: string;
  kind: Kind;
  file: 'classes' | 'users' | 'enrollments' | 'courses' | 'academicSessions' | 'orgs';
}> = [
  { path: 'classes', kind: 'class', file: 'classes' },
  { path: 'users', kind: 'user', file: 'users' },
  { path: 'enrollments', kind: 'enrollment', file: 'enrollments' },
  { path: 'courses', kind: 'course', file: 'courses' },
  { path: 'academicSessions', kind: 'academicSession', file: 'academicSessions' },
  { path: 'orgs', kind: 'org', file: 'orgs' },
];

/** Fields each withhold category removes from users (both versions) and demographics. */
const WITHHELD_USER_FIELDS: Record<string, string[]> = {
  contact: ['email', 'phone', 'sms'],
  identifiers: ['identifier', 'userIds', 'userMasterIdentifier'],
  preferred_names: ['preferredFirstName', 'preferredMiddleName', 'preferredLastName', 'pronouns'],
};

describe('data sharing: every read serves what the school shares, no more', () => {
  const h = new RosterHarness();
  const fixture = sharingFixture(SEED);
  const model = new SharingModel(fixture);
  let identity: IdentityProcess;
  let T: TenantSetup;
  let token: string;
  let operator: string;
  const lineItems: Array<{ id: string; cls: string }> = [];
  const results: Array<{ id: string; lineItem: string; cls: string; student: string }> = [];

  beforeAll(async () => {
    await h.start(async (db) => {
      identity = await startIdentity(db.url);
      return { LOG_LEVEL: process.env.DEBUG_LOG ?? 'silent' };
    });
    T = await h.tenant({ rootOrg: 'org-d1' });
    await loadFixture(h, T, fixture);
    token = await h.token(T, [...Object.values(SCOPE), ...Object.values(SCOPE_V1P2)]);
    const op = await clientCredentialsToken(identity.url, OPERATOR.id, OPERATOR.secret);
    operator = op.body.access_token as string;
    await writeGradebook();
  }, 120_000);

  afterAll(async () => {
    await identity?.stop();
    await h.stop();
  });

  /** Line items and results written by another app of the school, before any sharing. */
  async function writeGradebook(): Promise<void> {
    const writer = await h.otherApp(T);
    const put = await h.token(writer, [SCOPE.gradebookPut, SCOPE.gradebook]);
    const rnd = prng(SEED + 1);
    const enrolled = model.roster.activeEnrollments((e) => e.role === 'student');
    const activeUsers = new Set(model.roster.ids('users', (u) => u.active));
    const activeClasses = new Set(model.roster.ids('classes', (c) => c.active));
    for (const cls of sample(rnd, [...activeClasses], 12)) {
      const id = `li-${cls}`;
      await h
        .put(
          `lineItems/${id}`,
          {
            lineItem: {
              title: id,
              assignDate: '2025-03-01T08:00:00Z',
              dueDate: '2025-03-08T08:00:00Z',
              class: { sourcedId: cls },
              resultValueMin: 0,
              resultValueMax: 10,
            },
          },
          put,
        )
        .expect(201);
      lineItems.push({ id, cls });
      const students = enrolled.filter((e) => e.classSourcedId === cls && activeUsers.has(e.userSourcedId as string));
      for (const e of sample(rnd, students, 3)) {
        const rid = `res-${cls}-${e.userSourcedId}`;
        await h
          .put(
            `results/${rid}`,
            {
              result: {
                lineItem: { sourcedId: id },
                student: { sourcedId: e.userSourcedId },
                scoreStatus: 'fully graded',
                score: 7,
                scoreDate: '2025-03-09',
              },
            },
            put,
          )
          .expect(201);
        results.push({ id: rid, lineItem: id, cls, student: e.userSourcedId as string });
      }
    }
  }

  async function share(spec: ModelSpec): Promise<void> {
    const base = `${identity.url}/tenants/${T.tenantId}/apps/${T.appId}/sharing`;
    const headers = { Authorization: `Bearer ${operator}`, 'Content-Type': 'application/json' };
    const put = await fetch(base, { method: 'PUT', headers, body: JSON.stringify(spec) });
    expect([put.status, await put.text()]).toEqual([200, expect.any(String)]);
    const act = await fetch(`${base}/activate`, { method: 'POST', headers });
    expect(act.status).toBe(200);
  }

  async function preview(): Promise<Record<string, { count: number; first: string[] }>> {
    const res = await fetch(`${identity.url}/tenants/${T.tenantId}/apps/${T.appId}/sharing/preview?state=active`, {
      headers: { Authorization: `Bearer ${operator}` },
    });
    expect(res.status).toBe(200);
    return ((await res.json()) as { collections: Record<string, { count: number; first: string[] }> }).collections;
  }

  /** One read of a whole collection: its ids in order, its total, its objects. */
  async function read(
    root: string,
    path: string,
    key: string,
  ): Promise<{ ids: string[]; total: number; objects: Array<Record<string, unknown>> }> {
    const sep = path.includes('?') ? '&' : '?';
    const res = await h.get(`${root}/${path}${sep}limit=1000`, token);
    if (res.status !== 200) throw new Error(`${root}/${path}: ${res.status} ${JSON.stringify(res.body)}`);
    const objects = res.body[key] as Array<Record<string, unknown>>;
    return { ids: objects.map((o) => o.sourcedId as string), total: Number(res.headers['x-total-count']), objects };
  }

  const expectedOf = (c: Collection, spec: ModelSpec, v: Visible): string[] =>
    spec.withhold?.includes('demographics') && c.kind === 'demographics'
      ? []
      : model.roster.expected(c.op).filter((id) => v[c.kind].has(id));

  function expectFieldsWithheld(spec: ModelSpec, objects: Array<Record<string, unknown>>, kind: Kind): void {
    const gone =
      kind === 'user'
        ? (spec.withhold ?? []).flatMap((w) => WITHHELD_USER_FIELDS[w] ?? [])
        : kind === 'demographics' && spec.withhold?.includes('birth_date')
          ? ['birthDate']
          : [];
    for (const o of objects) for (const f of gone) expect(Object.keys(o)).not.toContain(f);
  }

  async function checkCollections(
    spec: ModelSpec,
    v: Visible,
    shown: Record<string, { count: number; first: string[] }>,
  ): Promise<void> {
    const reads = [PREFIX, V1P2.rostering].flatMap((root) => COLLECTIONS.map((c) => ({ root, c })));
    // Concurrently, as many apps read at once: each answer is checked on its own.
    const served = await Promise.all(reads.map(({ root, c }) => read(root, c.path, c.key)));
    for (const [i, { root, c }] of reads.entries()) {
      const got = served[i] as Awaited<ReturnType<typeof read>>;
      const expected = expectedOf(c, spec, v);
      expect({ read: `${root}/${c.path}`, ids: got.ids }).toEqual({ read: `${root}/${c.path}`, ids: expected });
      expect(got.total).toBe(expected.length);
      expectFieldsWithheld(spec, got.objects, c.kind);
      if (c.preview && root === PREFIX) {
        expect({ preview: c.preview, ...shown[c.preview] }).toEqual({
          preview: c.preview,
          count: got.total,
          first: got.ids.slice(0, 5),
        });
      }
    }
  }

  async function checkGradebook(v: Visible, shown: Record<string, { count: number; first: string[] }>): Promise<void> {
    const byte = (a: string, b: string) => Buffer.compare(Buffer.from(a), Buffer.from(b));
    const items = lineItems
      .filter((l) => v.class.has(l.cls))
      .map((l) => l.id)
      .sort(byte);
    const res = results
      .filter((r) => v.class.has(r.cls) && v.user.has(r.student))
      .map((r) => r.id)
      .sort(byte);
    for (const root of [PREFIX, V1P2.gradebook]) {
      expect((await read(root, 'lineItems', 'lineItems')).ids).toEqual(items);
      expect((await read(root, 'results', 'results')).ids).toEqual(res);
    }
    expect(shown['lineItems']).toEqual({ count: items.length, first: items.slice(0, 5) });
    expect(shown['results']).toEqual({ count: res.length, first: res.slice(0, 5) });
  }

  async function checkRelationships(rnd: () => number, v: Visible): Promise<void> {
    const cls = pick(rnd, model.roster.ids('classes'));
    const school = pick(rnd, ['org-s1', 'org-s2', 'org-s3', 'org-x1']);
    const user = pick(rnd, model.roster.ids('users'));
    const term = pick(rnd, ['as-t1', 'as-t2']);
    const cases: Array<{
      path: string;
      op: string;
      ids: Record<string, string>;
      parent: boolean;
      kind: Kind;
      key: string;
    }> = [
      {
        path: `classes/${cls}/students`,
        op: 'getStudentsForClass',
        ids: { id: cls },
        parent: v.class.has(cls),
        kind: 'user' as Kind,
        key: 'users',
      },
      {
        path: `classes/${cls}/teachers`,
        op: 'getTeachersForClass',
        ids: { id: cls },
        parent: v.class.has(cls),
        kind: 'user' as Kind,
        key: 'users',
      },
      {
        path: `schools/${school}/classes`,
        op: 'getClassesForSchool',
        ids: { school_id: school },
        parent: v.org.has(school),
        kind: 'class' as Kind,
        key: 'classes',
      },
      {
        path: `schools/${school}/students`,
        op: 'getStudentsForSchool',
        ids: { school_id: school },
        parent: v.org.has(school),
        kind: 'user' as Kind,
        key: 'users',
      },
      {
        path: `users/${user}/classes`,
        op: 'getClassesForUser',
        ids: { id: user },
        parent: v.user.has(user),
        kind: 'class' as Kind,
        key: 'classes',
      },
      {
        path: `terms/${term}/classes`,
        op: 'getClassesForTerm',
        ids: { id: term },
        parent: v.academicSession.has(term),
        kind: 'class' as Kind,
        key: 'classes',
      },
    ];
    for (const c of cases) {
      const expected = c.parent ? model.roster.expected(c.op, c.ids).filter((id) => v[c.kind].has(id)) : [];
      expect({ path: c.path, ids: (await read(PREFIX, c.path, c.key)).ids }).toEqual({ path: c.path, ids: expected });
      const v12 = await h.get(`${V1P2.rostering}/${c.path}?limit=1000`, token);
      if (expected.length > 0)
        expect({ path: c.path, ids: v12.body[c.key].map((o: { sourcedId: string }) => o.sourcedId) }).toEqual({
          path: c.path,
          ids: expected,
        });
      else if (!c.parent) expect({ path: c.path, status: v12.status }).toEqual({ path: c.path, status: 404 });
    }
  }

  async function checkSingles(rnd: () => number, v: Visible): Promise<void> {
    const reads = SINGLES.flatMap((s) =>
      sample(rnd, model.roster.ids(s.file), 3).flatMap((id) =>
        [PREFIX, V1P2.rostering].map((root) => ({
          read: `${root}/${s.path}/${id}`,
          path: `${root}/${s.path}/${encodeURIComponent(id)}`,
          want: v[s.kind].has(id) ? 200 : 404,
        })),
      ),
    );
    const statuses = await Promise.all(reads.map(async (r) => (await h.get(r.path, token)).status));
    expect(reads.map((r, i) => ({ read: r.read, status: statuses[i] }))).toEqual(
      reads.map((r) => ({ read: r.read, status: r.want })),
    );
  }

  async function checkWithheldFilters(spec: ModelSpec): Promise<void> {
    if (spec.withhold?.includes('contact')) {
      const res = await h.get(`${PREFIX}/users?filter=${encodeURIComponent("email='x'")}`, token);
      expect(res.status).toBe(400);
      const sorted = await h.get(`${V1P2.rostering}/users?sort=email`, token);
      expect(sorted.status).toBe(400);
    }
  }

  it(`holds for ${RUNS} random sharings (seed ${SEED})`, async () => {
    const rnd = prng(SEED + 2);
    const classIds = model.roster.ids('classes');
    const modes = new Set<string>();
    for (let run = 0; run < RUNS; run++) {
      const spec = randomSpec(rnd, classIds);
      modes.add(spec.mode);
      // Fresh tokens: a slow machine may take longer than a token lives.
      token = await h.token(T, [...Object.values(SCOPE), ...Object.values(SCOPE_V1P2)]);
      if (run % 20 === 0)
        operator = (await clientCredentialsToken(identity.url, OPERATOR.id, OPERATOR.secret)).body
          .access_token as string;
      await share(spec);
      const v = model.visible(spec);
      try {
        const shown = await preview();
        await checkCollections(spec, v, shown);
        await checkGradebook(v, shown);
        await checkRelationships(rnd, v);
        await checkSingles(rnd, v);
        await checkWithheldFilters(spec);
      } catch (err) {
        throw new Error(`run ${run} (seed ${SEED}) with ${JSON.stringify(spec)}: ${(err as Error).message}`);
      }
    }
    expect([...modes].sort()).toEqual(RUNS >= 100 ? ['all', 'classes', 'rules', 'schools'] : expect.any(Array));
  }, 900_000);
});
