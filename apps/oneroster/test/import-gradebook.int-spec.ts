import { clonePackage, fullPackage, setMode, writeFolder, type CsvPackage } from './support/csv-package';
import { HREF_ROOT, RosterHarness, SCOPE, type TenantSetup } from './support/harness';
import { expectImsxError } from './support/imsx';
import { importFolder } from './support/load';

const COMPACT_DATETIME = /^\d{8}T\d{6}\.\d{3}Z$/;
const TABLES = [
  'roster_resources',
  'roster_class_resources',
  'roster_course_resources',
  'gradebook_categories',
  'gradebook_line_items',
  'gradebook_results',
  'roster_classes',
];

/** The resources and gradebook files of the CSV binding (reference §11.3), validated and merged like the rostering files. */
describe('CSV import of resources and gradebook files', () => {
  const h = new RosterHarness();

  beforeAll(() => h.start());
  afterAll(() => h.stop());

  const run = (t: TenantSetup, p: CsvPackage, raw: Record<string, string> = {}) =>
    importFolder(h, t.tenantId, writeFolder(p, raw));
  const snapshot = async (t: TenantSetup) => {
    const parts: unknown[] = [];
    for (const table of TABLES)
      parts.push(await h.ds.query(`SELECT * FROM ${table} WHERE tenant_id = $1 ORDER BY sourced_id`, [t.tenantId]));
    return JSON.stringify(parts);
  };
  /** A delta package touching only the named files. */
  const delta = (files: Record<string, { header: string[]; rows: Record<string, string>[] }>): CsvPackage => {
    const p = fullPackage();
    for (const [k] of p.manifest) if (k.startsWith('file.')) setMode(p, k.slice(5) as never, 'absent');
    for (const [name, f] of Object.entries(files)) {
      p.manifest.find(([k]) => k === `file.${name.replace('.csv', '')}`)![1] = 'delta';
      p.files[name] = f;
    }
    return p;
  };
  const header = (name: string) => fullPackage().files[name]!.header;

  it('imports a package with every file and serves what it imported', async () => {
    const t = await h.tenant();
    const report = await run(t, fullPackage());
    expect(report).toMatchObject({ status: 'succeeded', errors: [], warnings: [] });
    expect(report.counts).toMatchObject({
      'categories.csv': { inserted: 2 },
      'lineItems.csv': { inserted: 2 },
      'results.csv': { inserted: 2 },
      'resources.csv': { inserted: 2 },
    });
    const token = await h.token(t, [SCOPE.gradebook]);
    expect((await h.get('lineItems/li-2', token).expect(200)).body.lineItem).toEqual({
      sourcedId: 'li-2',
      status: 'active',
      dateLastModified: expect.stringMatching(COMPACT_DATETIME),
      title: 'Test',
      assignDate: '20250228T230000.000Z',
      dueDate: '20250301T000000.000Z',
      class: { href: `${HREF_ROOT}/classes/cls-2`, sourcedId: 'cls-2', type: 'class' },
      category: { href: `${HREF_ROOT}/categories/cat-2`, sourcedId: 'cat-2', type: 'category' },
      gradingPeriod: { href: `${HREF_ROOT}/academicSessions/as-t1`, sourcedId: 'as-t1', type: 'academicSession' },
    });
    expect((await h.get('results/rs-1', token).expect(200)).body.result).toMatchObject({
      scoreStatus: 'fully graded',
      score: 10.5,
      scoreDate: '20250211',
      comment: 'Well done',
    });
    expect((await h.get('results/rs-2', token).expect(200)).body.result).not.toHaveProperty('score');
    expect(
      (await h.get('classes/cls-1/results', token).expect(200)).body.results.map(
        (r: { sourcedId: string }) => r.sourcedId,
      ),
    ).toEqual(['rs-1']);
    expect((await h.get('lineItems/li-1', token).expect(200)).body.lineItem).toMatchObject({
      resultValueMin: 0,
      resultValueMax: 10,
      description: 'Fractions',
    });
    // Imported objects belong to the import: no app may replace or delete them.
    const app = await h.token(t, [SCOPE.gradebookPut, SCOPE.gradebookDelete]);
    expectImsxError(await h.put('categories/cat-1', { category: { title: 'Mine' } }, app), 403, 'unauthorisedrequest');
    expectImsxError(await h.delete('results/rs-1', app), 403, 'unauthorisedrequest');
    // ...but apps may write results against imported line items.
    await h
      .put(
        'results/rs-app',
        {
          result: {
            lineItem: { sourcedId: 'li-1' },
            student: { sourcedId: 'usr-s1' },
            scoreStatus: 'submitted',
            score: 3,
            scoreDate: '2025-02-12',
          },
        },
        app,
      )
      .expect(201);
  });

  describe('validation: every error named by file, line and column; nothing written', () => {
    const CASES: Array<
      [string, (p: CsvPackage) => void, { file: string; line: number; column: string; message: RegExp }]
    > = [
      [
        'a score that is not a number',
        (p) => (p.files['results.csv']!.rows[0]!.score = '9,5'),
        { file: 'results.csv', line: 2, column: 'score', message: /not a number/ },
      ],
      [
        'a score status without its space',
        (p) => (p.files['results.csv']!.rows[0]!.scoreStatus = 'fullygraded'),
        { file: 'results.csv', line: 2, column: 'scoreStatus', message: /not one of exempt, fully graded/ },
      ],
      [
        'a graded result without a score',
        (p) => (p.files['results.csv']!.rows[0]!.score = ''),
        { file: 'results.csv', line: 2, column: 'score', message: /score is required unless/ },
      ],
      [
        'a result for an unknown line item',
        (p) => (p.files['results.csv']!.rows[1]!.lineItemSourcedId = 'li-9'),
        { file: 'results.csv', line: 3, column: 'lineItemSourcedId', message: /'li-9' is not a known line item/ },
      ],
      [
        'a result for an unknown student',
        (p) => (p.files['results.csv']!.rows[0]!.studentSourcedId = 'usr-9'),
        { file: 'results.csv', line: 2, column: 'studentSourcedId', message: /'usr-9' is not a known user/ },
      ],
      [
        'a bad scoreDate',
        (p) => (p.files['results.csv']!.rows[0]!.scoreDate = '11/02/2025'),
        { file: 'results.csv', line: 2, column: 'scoreDate', message: /not a date/ },
      ],
      [
        'a bad assignDate',
        (p) => (p.files['lineItems.csv']!.rows[1]!.assignDate = 'soon'),
        { file: 'lineItems.csv', line: 3, column: 'assignDate', message: /not an ISO 8601 datetime/ },
      ],
      [
        'a line item without a category',
        (p) => (p.files['lineItems.csv']!.rows[0]!.categorySourcedId = ''),
        { file: 'lineItems.csv', line: 2, column: 'categorySourcedId', message: /is required/ },
      ],
      [
        'a line item of an unknown class',
        (p) => (p.files['lineItems.csv']!.rows[0]!.classSourcedId = 'cls-9'),
        { file: 'lineItems.csv', line: 2, column: 'classSourcedId', message: /'cls-9' is not a known class/ },
      ],
      [
        'resultValueMin above resultValueMax',
        (p) => (p.files['lineItems.csv']!.rows[0]!.resultValueMin = '20'),
        { file: 'lineItems.csv', line: 2, column: 'resultValueMin', message: /greater than resultValueMax/ },
      ],
      [
        'a category without a title',
        (p) => (p.files['categories.csv']!.rows[1]!.title = ''),
        { file: 'categories.csv', line: 3, column: 'title', message: /title is required/ },
      ],
      [
        'a resource role that is no role',
        (p) => (p.files['resources.csv']!.rows[0]!.roles = 'student,wizard'),
        { file: 'resources.csv', line: 2, column: 'roles', message: /'wizard' is not one of/ },
      ],
      [
        'a resource without vendorResourceId',
        (p) => (p.files['resources.csv']!.rows[1]!.vendorResourceId = ''),
        { file: 'resources.csv', line: 3, column: 'vendorResourceId', message: /is required/ },
      ],
      [
        'a class resource naming an unknown resource',
        (p) => (p.files['classResources.csv']!.rows[2]!.resourceSourcedId = 'res-9'),
        {
          file: 'classResources.csv',
          line: 4,
          column: 'resourceSourcedId',
          message: /'res-9' is not a known resource/,
        },
      ],
      [
        'a course resource naming an unknown course',
        (p) => (p.files['courseResources.csv']!.rows[0]!.courseSourcedId = 'crs-9'),
        { file: 'courseResources.csv', line: 2, column: 'courseSourcedId', message: /'crs-9' is not a known course/ },
      ],
      [
        'an unknown column',
        (p) => p.files['lineItems.csv']!.header.push('weight'),
        { file: 'lineItems.csv', line: 1, column: 'weight', message: /unknown column 'weight'/ },
      ],
      [
        'a missing required column',
        (p) => (p.files['results.csv']!.header = p.files['results.csv']!.header.filter((c) => c !== 'scoreStatus')),
        { file: 'results.csv', line: 1, column: 'scoreStatus', message: /missing column/ },
      ],
      [
        'a duplicate sourcedId',
        (p) => (p.files['categories.csv']!.rows[1]!.sourcedId = 'cat-1'),
        { file: 'categories.csv', line: 3, column: 'sourcedId', message: /duplicate sourcedId 'cat-1'/ },
      ],
    ];

    it.each(CASES)('%s', async (_label, spoil, error) => {
      const t = await h.tenant();
      expect((await run(t, fullPackage())).status).toBe('succeeded');
      const before = await snapshot(t);
      const p = clonePackage(fullPackage());
      p.files['categories.csv']!.rows[0]!.title = 'Renamed, so a successful import would show';
      spoil(p);
      const report = await run(t, p);
      expect(report.status).toBe('failed');
      expect(report.errors).toContainEqual({ ...error, message: expect.stringMatching(error.message) });
      expect(await snapshot(t)).toBe(before);
    });
  });

  it('never changes or tombstones what apps wrote, and refuses files naming their objects', async () => {
    const t = await h.tenant();
    expect((await run(t, fullPackage())).status).toBe('succeeded');
    const app = await h.token(t, [SCOPE.gradebook, SCOPE.gradebookPut, SCOPE.gradebookDelete]);
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
    const appItem = (await h.get('lineItems/li-app', app).expect(200)).body.lineItem;

    // A bulk file without the app's objects leaves them alone; a result of the import may name the app's line item.
    const p = fullPackage();
    p.files['results.csv']!.rows.push({
      sourcedId: 'rs-3',
      lineItemSourcedId: 'li-app',
      studentSourcedId: 'usr-s1',
      scoreStatus: 'submitted',
      score: '0',
      scoreDate: '2025-02-04',
    });
    expect((await run(t, p)).status).toBe('succeeded');
    expect((await h.get('lineItems/li-app', app).expect(200)).body.lineItem).toEqual(appItem);
    expect((await h.get('results/rs-app', app).expect(200)).body.result.score).toBe(1);
    expect((await h.get('results/rs-3', app).expect(200)).body.result.lineItem.sourcedId).toBe('li-app');

    // A file naming the app's object is refused, bulk or delta, change or tombstone.
    const naming = fullPackage();
    naming.files['lineItems.csv']!.rows.push({
      sourcedId: 'li-app',
      title: 'Taken over',
      assignDate: '2025-02-01T00:00:00Z',
      dueDate: '2025-02-02T00:00:00Z',
      classSourcedId: 'cls-1',
      categorySourcedId: 'cat-1',
      gradingPeriodSourcedId: 'as-t1',
    });
    const refused = await run(t, naming);
    expect(refused.status).toBe('failed');
    expect(refused.errors).toContainEqual({
      file: 'lineItems.csv',
      line: 4,
      column: 'sourcedId',
      message: expect.stringMatching(/an app created through the API/),
    });
    const tombstone = await run(
      t,
      delta({
        'results.csv': {
          header: header('results.csv'),
          rows: [{ sourcedId: 'rs-app', status: 'tobedeleted', dateLastModified: '2025-03-01T00:00:00Z' }],
        },
      }),
    );
    expect(tombstone.status).toBe('failed');
    expect((await h.get('results/rs-app', app).expect(200)).body.result.status).toBe('active');
  });

  it('tombstones the results of a line item a delta deletes, and bumps classes whose resources change', async () => {
    const t = await h.tenant();
    expect((await run(t, fullPackage())).status).toBe('succeeded');
    const token = await h.token(t, [SCOPE.gradebook, SCOPE.roster, SCOPE.resources]);
    const cls2Before = (await h.get('classes/cls-2', token).expect(200)).body.class.dateLastModified;
    const cls1Before = (await h.get('classes/cls-1', token).expect(200)).body.class.dateLastModified;

    const report = await run(
      t,
      delta({
        'lineItems.csv': {
          header: header('lineItems.csv'),
          rows: [{ sourcedId: 'li-2', status: 'tobedeleted', dateLastModified: '2025-04-01T00:00:00Z' }],
        },
        'classResources.csv': {
          header: header('classResources.csv'),
          rows: [{ sourcedId: 'cr-3', status: 'tobedeleted', dateLastModified: '2025-04-01T00:00:00Z' }],
        },
      }),
    );
    expect(report).toMatchObject({ status: 'succeeded', errors: [] });
    expect(report.counts['results.csv']).toMatchObject({ tombstoned: 1 });
    expectImsxError(await h.get('lineItems/li-2', token), 404, 'unknownobject');
    expectImsxError(await h.get('results/rs-2', token), 404, 'unknownobject');
    const feed = await h.get(`results?filter=${encodeURIComponent("status='tobedeleted'")}`, token).expect(200);
    expect(feed.body.results.map((r: { sourcedId: string }) => r.sourcedId)).toEqual(['rs-2']);

    const cls2 = (await h.get('classes/cls-2', token).expect(200)).body.class;
    expect(cls2).not.toHaveProperty('resources');
    expect(cls2.dateLastModified > cls2Before).toBe(true);
    expect((await h.get('classes/cls-1', token).expect(200)).body.class.dateLastModified).toBe(cls1Before);
    expect((await h.get('classes/cls-2/resources', token).expect(200)).body.resources).toEqual([]);
    // Resources are imported like rostering data: a tombstoned one stays readable.
    const gone = await run(
      t,
      delta({
        'resources.csv': {
          header: header('resources.csv'),
          rows: [{ sourcedId: 'res-2', status: 'tobedeleted', dateLastModified: '2025-04-02T00:00:00Z' }],
        },
      }),
    );
    expect(gone.status).toBe('succeeded');
    expect((await h.get('resources/res-2', token).expect(200)).body.resource.status).toBe('tobedeleted');
  });

  it('tombstones imported gradebook records a bulk file leaves out', async () => {
    const t = await h.tenant();
    expect((await run(t, fullPackage())).status).toBe('succeeded');
    const p = fullPackage();
    p.files['categories.csv']!.rows = p.files['categories.csv']!.rows.filter((r) => r.sourcedId !== 'cat-2');
    p.files['lineItems.csv']!.rows[1]!.categorySourcedId = 'cat-1';
    const report = await run(t, p);
    expect(report.counts['categories.csv']).toMatchObject({ tombstoned: 1 });
    expect(report.counts['lineItems.csv']).toMatchObject({ updated: 1 });
    const token = await h.token(t, [SCOPE.gradebook]);
    expectImsxError(await h.get('categories/cat-2', token), 404, 'unknownobject');
    const listed = async (query: string) =>
      (await h.get(`categories${query}`, token).expect(200)).body.categories.map(
        (c: { sourcedId: string; status: string }) => [c.sourcedId, c.status],
      );
    // Gone from a plain read; a delta read (a filter on status or dateLastModified) still sees the tombstone.
    expect(await listed('')).toEqual([['cat-1', 'active']]);
    expect(await listed(`?filter=${encodeURIComponent("dateLastModified>'2000-01-01'")}`)).toEqual([
      ['cat-1', 'active'],
      ['cat-2', 'tobedeleted'],
    ]);
  });
});
