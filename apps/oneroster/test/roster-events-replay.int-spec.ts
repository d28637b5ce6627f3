/**
 * The change feed as a property: on a generated tenant of 50,000 users, a random mix of delta
 * imports (creates, updates, deletes), gradebook writes and sharing changes (through the identity
 * API); the events after a cursor c0 come in feed order without gaps or duplicates, and replayed
 * onto the deployment's full OneRoster 1.2 read at c0 they give exactly its full read at the end.
 * After compaction, c0 still replays to the same state.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { execFileSync } from 'node:child_process';
import { FILE_LAYOUTS, standardHeaders, type V1p1FileType } from '../src/imports/csv-layout';
import { EventCompaction } from '../src/events/event-compaction';
import { writeFolder, type CsvPackage, type Rows } from './support/csv-package';
import { applyEvents, differences, inFeedOrder, type Copy, type FeedEvent } from './support/feed-replay';
import { RosterHarness, SCOPE, type TenantSetup } from './support/harness';
import { clientCredentialsToken, OPERATOR, startIdentity, type IdentityProcess } from './support/identity-process';
import { importFolder } from './support/load';
import { pick, prng, sample } from './support/sharing-fixture';
import { SCOPE_V1P2, V1P2 } from './support/v1p2';

const EVENTS = 'https://api.edu.example/scope/roster/events.readonly';
const SEED = Number(process.env.FEED_SEED ?? 4242);
const FULL: ReadonlyArray<[root: string, collection: string]> = [
  [V1P2.rostering, 'orgs'],
  [V1P2.rostering, 'academicSessions'],
  [V1P2.rostering, 'courses'],
  [V1P2.rostering, 'classes'],
  [V1P2.rostering, 'users'],
  [V1P2.rostering, 'enrollments'],
  [V1P2.gradebook, 'categories'],
  [V1P2.gradebook, 'lineItems'],
  [V1P2.gradebook, 'results'],
  [V1P2.resources, 'resources'],
];
const FILE_TYPES: V1p1FileType[] = [
  'academicSessions',
  'categories',
  'classes',
  'classResources',
  'courses',
  'courseResources',
  'demographics',
  'enrollments',
  'lineItems',
  'orgs',
  'resources',
  'results',
  'users',
];
const stamp = (n: number) => new Date(Date.UTC(2026, 5, 1, 0, 0, n)).toISOString();

describe('roster change feed: replaying it keeps a copy exact', () => {
  const h = new RosterHarness();
  const rnd = prng(SEED);
  let identity: IdentityProcess;
  let D: TenantSetup;
  let feedToken: string;
  let readToken: string;
  let writeToken: string;
  let operator: string;
  let clock = 0;

  beforeAll(async () => {
    await h.start(async (db) => {
      identity = await startIdentity(db.url);
      return {};
    });
    const T = await h.tenant({ rootOrg: 'org-district' });
    const dir = mkdtempSync(path.join(tmpdir(), 'feed-replay-'));
    // The benchmark's generator (bench/oneroster/generate.ts), run from its sources as a command.
    const root = path.resolve(__dirname, '..', '..', '..');
    execFileSync(
      process.execPath,
      [
        '-r',
        path.join(__dirname, 'support/ts-register.js'),
        path.join(root, 'bench/oneroster/generate.ts'),
        '--out',
        dir,
        '--scale',
        '0.05',
        '--seed',
        String(SEED),
      ],
      { cwd: root, stdio: 'ignore' },
    );
    expect((await importFolder(h, T.tenantId, dir)).status).toBe('succeeded');
    D = await h.otherApp(T);
    await h.ds.query('UPDATE tenant_app_deployments SET scope = $2 WHERE id = $1', [
      D.deploymentId,
      [...Object.values(SCOPE), ...Object.values(SCOPE_V1P2), EVENTS],
    ]);
    operator = (await clientCredentialsToken(identity.url, OPERATOR.id, OPERATOR.secret)).body.access_token as string;
  }, 300_000);

  afterAll(async () => {
    await identity?.stop();
    await h.stop();
  });

  async function tokens(): Promise<void> {
    feedToken = await h.token(D, [EVENTS]);
    readToken = await h.token(D, Object.values(SCOPE_V1P2));
    writeToken = await h.token(D, [SCOPE.gradebookPut, SCOPE.gradebookDelete]);
  }

  /** The deployment's whole roster as 1.2 reads serve it, tombstones left out. */
  async function fullRead(): Promise<Copy> {
    const copy: Copy = new Map();
    for (const [root, collection] of FULL) {
      const objects = new Map<string, unknown>();
      for (let offset = 0; ; offset += 1000) {
        const res = await h.get(`${root}/${collection}?limit=1000&offset=${offset}`, readToken);
        if (res.status !== 200) throw new Error(`${collection}: ${res.status} ${JSON.stringify(res.body)}`);
        const page = res.body[collection] as Array<Record<string, unknown>>;
        for (const o of page) if (o['status'] !== 'tobedeleted') objects.set(o['sourcedId'] as string, o);
        if (page.length < 1000) break;
      }
      copy.set(collection, objects);
    }
    return copy;
  }

  async function drain(after: string): Promise<{ events: FeedEvent[]; cursor: string }> {
    const events: FeedEvent[] = [];
    for (let at = after; ;) {
      const res = await h.get(`/roster-events/v1/events?after=${encodeURIComponent(at)}&limit=1000`, feedToken);
      if (res.status !== 200) throw new Error(`feed: ${res.status} ${JSON.stringify(res.body)}`);
      events.push(...res.body.events);
      at = res.body.next_cursor;
      if (!res.body.has_more) return { events, cursor: at };
    }
  }

  async function ids(sql: string): Promise<string[]> {
    return (await h.ds.query(sql, [D.tenantId])).map((r: { id: string }) => r.id);
  }

  /** A delta import: new students enrolled, renamed users, tombstoned users and enrollments, classes changing subject. */
  async function deltaImport(): Promise<void> {
    const classes: Array<{ id: string; school: string; course: string; subject: string; terms: string[] }> =
      await h.ds.query(
        `SELECT sourced_id AS id, school_sourced_id AS school, course_sourced_id AS course, subjects[1] AS subject, term_sourced_ids AS terms
         FROM roster_classes WHERE tenant_id = $1 AND status = 'active' ORDER BY random() LIMIT 40`,
        [D.tenantId],
      );
    const users: Array<{ id: string; school: string; role: string; given: string; family: string }> = await h.ds.query(
      `SELECT sourced_id AS id, org_sourced_ids[1] AS school, role, given_name AS given, family_name AS family
         FROM roster_users WHERE tenant_id = $1 AND status = 'active' AND role IN ('student', 'teacher') ORDER BY random() LIMIT 120`,
      [D.tenantId],
    );
    const userRows: Rows = [];
    const enrollmentRows: Rows = [];
    const at = () => stamp(++clock);
    for (const u of users.slice(0, 60))
      userRows.push(userRow(u.id, u.school, u.role, `${u.given}-${clock}`, u.family, at()));
    for (const u of users.slice(60, 80))
      userRows.push({ sourcedId: u.id, status: 'tobedeleted', dateLastModified: at() });
    for (let i = 0; i < 30; i++) {
      const k = pick(rnd, classes);
      const id = `stu-new-${clock}-${i}`;
      userRows.push(userRow(id, k.school, 'student', 'New', `Kid${i}`, at()));
      enrollmentRows.push({
        sourcedId: `enr-new-${clock}-${i}`,
        status: 'active',
        dateLastModified: at(),
        classSourcedId: k.id,
        schoolSourcedId: k.school,
        userSourcedId: id,
        role: 'student',
      });
    }
    const drop = await ids(
      `SELECT sourced_id AS id FROM roster_enrollments WHERE tenant_id = $1 AND status = 'active' AND role = 'student' ORDER BY random() LIMIT 40`,
    );
    for (const id of drop) enrollmentRows.push({ sourcedId: id, status: 'tobedeleted', dateLastModified: at() });
    const classRows = classes.slice(0, 10).map((k) => ({
      sourcedId: k.id,
      status: 'active',
      dateLastModified: at(),
      title: `Class ${k.id}`,
      courseSourcedId: k.course,
      classType: 'scheduled',
      schoolSourcedId: k.school,
      termSourcedIds: k.terms.join(','),
      subjects: k.subject === 'Mathematics' ? 'Art' : 'Mathematics',
    }));
    const report = await importFolder(
      h,
      D.tenantId,
      writeFolder(deltaPackage({ users: userRows, enrollments: enrollmentRows, classes: classRows })),
    );
    expect(report).toMatchObject({ status: 'succeeded', errors: [] });
  }

  /** Line items PUT in shared and unshared classes, results for their students, some deleted. */
  async function gradebookWrites(): Promise<void> {
    const pairs: Array<{ cls: string; student: string }> = await h.ds.query(
      `SELECT e.class_sourced_id AS cls, e.user_sourced_id AS student FROM roster_enrollments e JOIN roster_users u ON u.tenant_id = e.tenant_id AND u.sourced_id = e.user_sourced_id
        WHERE e.tenant_id = $1 AND e.status = 'active' AND e.role = 'student' AND u.status = 'active' ORDER BY random() LIMIT 8`,
      [D.tenantId],
    );
    for (const [i, p] of pairs.entries()) {
      const li = `li-${clock}-${i}`;
      const put = await h.put(
        `lineItems/${li}`,
        {
          lineItem: {
            title: li,
            assignDate: '2026-06-01T08:00:00Z',
            dueDate: '2026-06-08T08:00:00Z',
            class: { sourcedId: p.cls },
            resultValueMin: 0,
            resultValueMax: 10,
          },
        },
        writeToken,
      );
      if (put.status !== 201) continue; // a class the current sharing hides: refused like an unknown one
      await h.put(
        `results/r-${li}`,
        {
          result: {
            lineItem: { sourcedId: li },
            student: { sourcedId: p.student },
            scoreStatus: 'fully graded',
            score: i,
            scoreDate: '2026-06-09',
          },
        },
        writeToken,
      );
      if (rnd() < 0.3) await h.delete(`lineItems/${li}`, writeToken).expect(204);
    }
    clock++;
  }

  async function share(spec: Record<string, unknown>): Promise<void> {
    const base = `${identity.url}/tenants/${D.tenantId}/apps/${D.appId}/sharing`;
    const headers = { Authorization: `Bearer ${operator}`, 'Content-Type': 'application/json' };
    expect((await fetch(base, { method: 'PUT', headers, body: JSON.stringify(spec) })).status).toBe(200);
    expect((await fetch(`${base}/activate`, { method: 'POST', headers })).status).toBe(200);
  }

  it('replays a random mix of imports, gradebook writes and sharing changes onto the copy at c0 to the state at the end; so does c0 after compaction', async () => {
    await tokens();
    const c0 = (await h.get('/roster-events/v1/events', feedToken).expect(200)).body.next_cursor as string;
    const copy0 = await fullRead();
    const classes = await ids(
      `SELECT sourced_id AS id FROM roster_classes WHERE tenant_id = $1 ORDER BY random() LIMIT 300`,
    );
    const steps: Array<() => Promise<void>> = [
      deltaImport,
      gradebookWrites,
      () =>
        share({
          mode: 'rules',
          rules: [{ object: 'class', field: 'subject', op: 'is', value: 'Mathematics' }],
          withhold: ['contact'],
        }),
      deltaImport,
      gradebookWrites,
      () => share({ mode: 'classes', classes: sample(rnd, classes, 200) }),
      deltaImport,
      gradebookWrites,
      () => share({ mode: 'all', withhold: ['identifiers'] }),
      deltaImport,
    ];
    for (const step of steps) await step();
    await tokens();
    const { events, cursor } = await drain(c0);
    expect(inFeedOrder(events)).toBe(true);
    expect(events.length).toBeGreaterThan(1000);
    const copy1 = await fullRead();
    expect(differences(applyEvents(copy0, events), copy1)).toEqual([]);
    expect((await drain(cursor)).events).toEqual([]);

    const removed = await h.app.get(EventCompaction).run(new Date(Date.now() + 60_000));
    expect(removed).toBeGreaterThan(0);
    const compacted = await drain(c0);
    expect(compacted.events.length).toBeLessThan(events.length);
    expect(differences(applyEvents(copy0, compacted.events), copy1)).toEqual([]);
  }, 600_000);
});

function userRow(id: string, school: string, role: string, given: string, family: string, at: string): Rows[number] {
  return {
    sourcedId: id,
    status: 'active',
    dateLastModified: at,
    enabledUser: 'true',
    orgSourcedIds: school,
    role,
    username: id,
    givenName: given,
    familyName: family,
    email: `${id}@school.example`,
  };
}

/** A delta package of the given files; every other file absent. */
function deltaPackage(files: Partial<Record<V1p1FileType, Rows>>): CsvPackage {
  const manifest: [string, string][] = [
    ['manifest.version', '1.0'],
    ['oneroster.version', '1.1'],
  ];
  for (const t of FILE_TYPES) manifest.push([`file.${t}`, files[t] ? 'delta' : 'absent']);
  manifest.push(['source.systemName', 'Feed test SIS']);
  const out: CsvPackage = { manifest, files: {} };
  for (const [t, rows] of Object.entries(files) as Array<[V1p1FileType, Rows]>)
    out.files[FILE_LAYOUTS[t].fileName] = { header: standardHeaders(FILE_LAYOUTS[t]), rows };
  return out;
}
