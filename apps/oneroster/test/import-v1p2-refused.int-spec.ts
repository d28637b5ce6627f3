import { clonePackage, writeFolder, type CsvPackage } from './support/csv-package';
import { PROFILE_URI, v1p2Delta, v1p2Package } from './support/csv-package-v1p2';
import { RosterHarness, SCOPE, type TenantSetup } from './support/harness';
import { importFolder } from './support/load';

const TABLES = [
  'roster_orgs',
  'roster_users',
  'roster_user_roles',
  'roster_user_profiles',
  'roster_user_resources',
  'gradebook_score_scales',
  'gradebook_line_items',
  'gradebook_results',
  'gradebook_line_item_score_scales',
  'gradebook_result_score_scales',
  'gradebook_line_item_learning_objectives',
  'gradebook_result_learning_objectives',
  'roster_data_versions',
];
const AT = '2025-06-01T00:00:00Z';

type Spoil = (p: CsvPackage) => void;
const rows = (p: CsvPackage, name: string) => p.files[name]!.rows;
const row = (p: CsvPackage, name: string, id: string) => rows(p, name).find((r) => r.sourcedId === id)!;

/**
 * Refused OneRoster 1.2 packages: every error named by file, line and column — while reading
 * (cells, references, rules) or while folding records into their owners — and nothing written.
 */
describe('CSV import of 1.2 packages: refused packages', () => {
  const h = new RosterHarness();

  beforeAll(() => h.start());
  afterAll(() => h.stop());

  const run = (t: TenantSetup, p: CsvPackage) => importFolder(h, t.tenantId, writeFolder(p));
  const snapshot = async (t: TenantSetup) => {
    const parts: unknown[] = [];
    for (const table of TABLES)
      parts.push(await h.ds.query(`SELECT * FROM ${table} WHERE tenant_id = $1 ORDER BY 1, 2`, [t.tenantId]));
    return JSON.stringify(parts);
  };
  /** A bulk package spoilt by `spoil`, or a delta package. */
  const spoilt = (spoil: Spoil | CsvPackage) => {
    if (typeof spoil !== 'function') return spoil;
    const p = clonePackage(v1p2Package());
    // A change a successful import would write.
    row(p, 'users.csv', 'usr-s2').pronouns = 'he/him';
    spoil(p);
    return p;
  };

  const CASES: Array<[string, Spoil | CsvPackage, { file: string; line: number; column: string; message: RegExp }]> = [
    [
      'a user without a role',
      (p) => (p.files['roles.csv']!.rows = rows(p, 'roles.csv').filter((r) => r.userSourcedId !== 'usr-p1')),
      { file: 'users.csv', line: 3, column: 'sourcedId', message: /user 'usr-p1' has no active role/ },
    ],
    [
      'two primary roles of a user at one org',
      (p) =>
        rows(p, 'roles.csv').push({
          sourcedId: 'r-t1d',
          userSourcedId: 'usr-t1',
          roleType: 'primary',
          role: 'aide',
          orgSourcedId: 'org-s1',
        }),
      {
        file: 'roles.csv',
        line: 10,
        column: 'roleType',
        message: /user 'usr-t1' has more than one active primary role at org 'org-s1'/,
      },
    ],
    [
      'a bad ext value',
      (p) => (row(p, 'roles.csv', 'r-t1c').role = 'ext:coach!'),
      {
        file: 'roles.csv',
        line: 9,
        column: 'role',
        message: /'ext:coach!' is not one of aide, .* or an ext:<name> value/,
      },
    ],
    [
      'an ext prefix without a name',
      (p) => (row(p, 'orgs.csv', 'org-t').type = 'ext:'),
      { file: 'orgs.csv', line: 5, column: 'type', message: /'ext:' is not one of/ },
    ],
    [
      'a bad score scale value',
      (p) => (row(p, 'scoreScales.csv', 'ss-1').scoreScaleValue = 'A=90,B=80'),
      {
        file: 'scoreScales.csv',
        line: 2,
        column: 'scoreScaleValue',
        message: /'A=90,B=80' is not a list of \{lhs:rhs\} items/,
      },
    ],
    [
      'a score scale value without its right side',
      (p) => (row(p, 'scoreScales.csv', 'ss-2').scoreScaleValue = '{Pass:},{Fail:0 - 49}'),
      { file: 'scoreScales.csv', line: 3, column: 'scoreScaleValue', message: /'\{Pass:\},' needs both/ },
    ],
    [
      'a primary org the user has no role at',
      (p) => (row(p, 'users.csv', 'usr-s2').primaryOrgSourcedId = 'org-s1'),
      {
        file: 'users.csv',
        line: 5,
        column: 'primaryOrgSourcedId',
        message: /'org-s1' is not an org where user 'usr-s2' has an active role/,
      },
    ],
    [
      "a role with another user's profile",
      (p) => (row(p, 'roles.csv', 'r-s2').userProfileSourcedId = PROFILE_URI),
      {
        file: 'roles.csv',
        line: 6,
        column: 'userProfileSourcedId',
        message: /is a profile of user 'usr-t1', not of 'usr-s2'/,
      },
    ],
    [
      'a role at an unknown org',
      (p) => (row(p, 'roles.csv', 'r-s2').orgSourcedId = 'org-9'),
      { file: 'roles.csv', line: 6, column: 'orgSourcedId', message: /'org-9' is not a known org sourcedId/ },
    ],
    [
      'two score scales of one line item',
      (p) =>
        rows(p, 'lineItemScoreScales.csv').push({
          sourcedId: 'lss-2',
          lineItemSourcedId: 'li-1',
          scoreScaleSourcedId: 'ss-2',
        }),
      {
        file: 'lineItemScoreScales.csv',
        line: 3,
        column: 'lineItemSourcedId',
        message: /line item 'li-1' has more than one active score scale/,
      },
    ],
    [
      "a result of another class than its line item's",
      (p) => (row(p, 'results.csv', 'rs-1').classSourcedId = 'cls-2'),
      {
        file: 'results.csv',
        line: 2,
        column: 'classSourcedId',
        message: /'cls-2' is not the class of line item 'li-1' \(cls-1\)/,
      },
    ],
    [
      'a graded result without score or text score',
      (p) => (row(p, 'results.csv', 'rs-3').textScore = ''),
      { file: 'results.csv', line: 4, column: 'score', message: /score or textScore is required unless/ },
    ],
    [
      "a line item at another school than its class's",
      (p) => (row(p, 'lineItems.csv', 'li-1').schoolSourcedId = 'org-s2'),
      {
        file: 'lineItems.csv',
        line: 2,
        column: 'schoolSourcedId',
        message: /'org-s2' is not the school of class 'cls-1'/,
      },
    ],
    [
      'a bad learning objective source',
      (p) => (row(p, 'lineItemLearningObjectiveIds.csv', 'llo-2').source = '/State'),
      {
        file: 'lineItemLearningObjectiveIds.csv',
        line: 3,
        column: 'source',
        message: /'\/State' is not a learning objective source/,
      },
    ],
    [
      'a 1.1 users.csv under a 1.2 manifest',
      (p) => p.files['users.csv']!.header.push('role'),
      {
        file: 'manifest.csv',
        line: 3,
        column: 'value',
        message: /'oneroster.version' is '1.2' but users.csv has the OneRoster 1.1 columns role/,
      },
    ],
    [
      'a delta that leaves a user without a role',
      v1p2Delta({ roles: [{ sourcedId: 'r-s2', status: 'tobedeleted', dateLastModified: AT }] }),
      { file: 'roles.csv', line: 2, column: 'userSourcedId', message: /user 'usr-s2' is left without an active role/ },
    ],
    [
      "a delta that takes the role at a user's primary org",
      v1p2Delta({
        roles: [
          { sourcedId: 'r-t1b', status: 'tobedeleted', dateLastModified: AT },
          {
            sourcedId: 'r-t1e',
            status: 'active',
            dateLastModified: AT,
            userSourcedId: 'usr-t1',
            roleType: 'primary',
            role: 'counselor',
            orgSourcedId: 'org-d',
          },
        ],
      }),
      {
        file: 'roles.csv',
        line: 3,
        column: 'orgSourcedId',
        message: /user 'usr-t1' has no active role at its primary org 'org-s2' any more/,
      },
    ],
  ];

  it.each(CASES)('%s', async (_label, spoil, error) => {
    const t = await h.tenant();
    expect((await run(t, v1p2Package())).status).toBe('succeeded');
    const before = await snapshot(t);
    const report = await run(t, spoilt(spoil));
    expect(report.status).toBe('failed');
    expect(report.errors).toContainEqual({ ...error, message: expect.stringMatching(error.message) });
    expect(report.counts).toEqual({});
    expect(await snapshot(t)).toBe(before);
  });

  it("refuses link records naming an app's line item or result (one writer per object)", async () => {
    const t = await h.tenant();
    expect((await run(t, v1p2Package())).status).toBe('succeeded');
    const app = await h.token(t, [SCOPE.gradebookPut]);
    await h
      .put(
        'lineItems/li-app',
        {
          lineItem: {
            title: 'App quiz',
            assignDate: '2025-02-01T00:00:00Z',
            dueDate: '2025-02-02T00:00:00Z',
            class: { sourcedId: 'cls-1' },
          },
        },
        app,
      )
      .expect(201);
    await h
      .put(
        'results/rs-app',
        {
          result: {
            lineItem: { sourcedId: 'li-app' },
            student: { sourcedId: 'usr-s1' },
            scoreStatus: 'fully graded',
            score: 1,
            scoreDate: '2025-02-03',
          },
        },
        app,
      )
      .expect(201);
    const before = await snapshot(t);
    const p = v1p2Package();
    rows(p, 'lineItemScoreScales.csv').push({
      sourcedId: 'lss-app',
      lineItemSourcedId: 'li-app',
      scoreScaleSourcedId: 'ss-1',
    });
    rows(p, 'resultLearningObjectiveIds.csv').push({
      sourcedId: 'rlo-app',
      resultSourcedId: 'rs-app',
      source: 'case',
      learningObjectiveId: 'x',
    });
    const report = await run(t, p);
    expect(report.status).toBe('failed');
    expect(report.errors).toEqual([
      {
        file: 'lineItemScoreScales.csv',
        line: 3,
        column: 'lineItemSourcedId',
        message: "'li-app' is a line item an app created through the API; an import cannot change it",
      },
      {
        file: 'resultLearningObjectiveIds.csv',
        line: 4,
        column: 'resultSourcedId',
        message: "'rs-app' is a result an app created through the API; an import cannot change it",
      },
    ]);
    expect(await snapshot(t)).toBe(before);
  });
});
