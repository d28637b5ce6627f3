/**
 * OneRoster 1.2 gradebook data for the integration tests, written through the v1.2 API (PUT,
 * then DELETE of what is marked deleted) on top of the rostering fixtures (`roster-fixture.ts`),
 * and the helpers the v1.2 gradebook specs share: body builders, tokens, the schema check of an
 * answer by its operation.
 */
import type { RosterHarness, TenantSetup } from './harness';
import { loadFixture } from './load';
import { districtFixture, schoolFixture } from './roster-fixture';
import { SCOPE_V1P2, v1p2 } from './v1p2';
import { expectV1p2, findV1p2Operation, responseSchemaOf, type V1p2Service } from './v1p2/oas-schemas';

export const ref = (sourcedId: string, type?: string) => ({ sourcedId, ...(type ? { type } : {}) });

/** A write of the fixture: PUT `body` at `collection/id`; `deleted` ones are deleted afterwards. */
export interface FixtureWrite {
  readonly collection:
    'categories' | 'lineItems' | 'results' | 'scoreScales' | 'assessmentLineItems' | 'assessmentResults';
  readonly id: string;
  readonly body: object;
  readonly deleted?: boolean;
}

const letters = [
  { itemValueLHS: '90 - 100', itemValueRHS: 'A' },
  { itemValueLHS: '80 - 89', itemValueRHS: 'B' },
  { itemValueLHS: '0 - 79', itemValueRHS: 'C' },
];

export const lineItemBody = (over: Record<string, unknown> = {}) => ({
  lineItem: {
    title: 'Worksheet',
    assignDate: '2023-09-01T08:00:00Z',
    dueDate: '2023-09-08T08:00:00.000Z',
    class: ref('cls-alg-1'),
    school: ref('org-s1'),
    category: ref('cat-hw'),
    resultValueMin: 0,
    resultValueMax: 10,
    ...over,
  },
});
export const resultBody = (over: Record<string, unknown> = {}) => ({
  result: {
    lineItem: ref('li-alg1-hw1'),
    student: ref('usr-s-09'),
    scoreStatus: 'fully graded',
    score: 7,
    scoreDate: '2023-09-09',
    ...over,
  },
});
export const scoreScaleBody = (over: Record<string, unknown> = {}) => ({
  scoreScale: { title: 'Letter grades', type: 'letter', class: ref('cls-alg-1'), scoreScaleValue: letters, ...over },
});
export const assessmentLineItemBody = (over: Record<string, unknown> = {}) => ({
  assessmentLineItem: { title: 'Unit test', ...over },
});
export const assessmentResultBody = (over: Record<string, unknown> = {}) => ({
  assessmentResult: {
    assessmentLineItem: ref('ali-unit1'),
    student: ref('usr-s-01'),
    scoreStatus: 'fully graded',
    score: 80,
    scoreDate: '2023-10-02',
    ...over,
  },
});

/** The district tenant's v1.2 gradebook (classes and students of `districtFixture`). */
export function districtV1p2Gradebook(): FixtureWrite[] {
  const objectives = [{ source: 'case', learningObjectiveIds: ['6b9bca2a-8cd6-11e9-a8f4-0242ac120002'] }];
  return [
    { collection: 'categories', id: 'cat-hw', body: { category: { title: 'Homework', weight: 0.4 } } },
    {
      collection: 'categories',
      id: 'cat-quiz',
      body: { category: { title: 'Quizzes', weight: 0.6, metadata: { 'lms.colour': 'teal' } } },
    },
    { collection: 'categories', id: 'cat-old', body: { category: { title: 'Retired' } }, deleted: true },
    { collection: 'scoreScales', id: 'ss-letter', body: scoreScaleBody({ course: ref('crs-alg') }) },
    {
      collection: 'scoreScales',
      id: 'ss-pass',
      body: scoreScaleBody({
        title: 'Pass/fail',
        type: 'pass',
        class: ref('cls-eng-7a'),
        scoreScaleValue: [{ itemValueLHS: '50 - 100', itemValueRHS: 'pass' }],
      }),
    },
    { collection: 'scoreScales', id: 'ss-old', body: scoreScaleBody({ title: 'Old' }), deleted: true },
    {
      collection: 'lineItems',
      id: 'li-alg1-hw1',
      body: lineItemBody({
        title: 'Homework 1',
        description: 'Chapter 1',
        gradingPeriod: ref('as-gp1'),
        academicSession: ref('as-t1', 'academicSession'),
        scoreScale: ref('ss-letter'),
        learningObjectiveSet: objectives,
      }),
    },
    {
      collection: 'lineItems',
      id: 'li-alg1-quiz1',
      body: lineItemBody({
        title: 'Quiz 1',
        category: ref('cat-quiz'),
        academicSession: ref('as-gp2'),
        resultValueMax: 20,
      }),
    },
    {
      collection: 'lineItems',
      id: 'li-alg2-hw1',
      body: lineItemBody({ title: 'Homework 1', class: ref('cls-alg-2'), gradingPeriod: ref('as-gp1') }),
    },
    { collection: 'lineItems', id: 'li-alg1-old', body: lineItemBody({ title: 'Dropped' }), deleted: true },
    {
      collection: 'results',
      id: 'r-hw1-s01',
      body: resultBody({
        student: ref('usr-s-01'),
        class: ref('cls-alg-1', 'class'),
        scoreScale: ref('ss-letter'),
        score: 9.5,
        late: 'true',
        missing: 'false',
        learningObjectiveSet: [
          {
            source: 'case',
            learningObjectiveResults: [{ learningObjectiveId: '6b9bca2a-8cd6-11e9-a8f4-0242ac120002', score: 4 }],
          },
        ],
      }),
    },
    {
      collection: 'results',
      id: 'r-hw1-s03',
      body: resultBody({
        student: ref('usr-s-03'),
        scoreStatus: 'partially graded',
        score: undefined,
        textScore: 'B',
        comment: 'Q4 pending',
      }),
    },
    {
      collection: 'results',
      id: 'r-hw1-s05',
      body: resultBody({ student: ref('usr-s-05'), scoreStatus: 'exempt', score: undefined }),
    },
    {
      collection: 'results',
      id: 'r-quiz1-s01',
      body: resultBody({ lineItem: ref('li-alg1-quiz1'), student: ref('usr-s-01'), score: 17, inProgress: true }),
    },
    {
      collection: 'results',
      id: 'r-quiz1-s03',
      body: resultBody({ lineItem: ref('li-alg1-quiz1'), student: ref('usr-s-03') }),
      deleted: true,
    },
    {
      collection: 'results',
      id: 'r-alg2-s02',
      body: resultBody({ lineItem: ref('li-alg2-hw1'), student: ref('usr-s-02'), scoreStatus: 'ext:regraded' }),
    },
    {
      collection: 'assessmentLineItems',
      id: 'ali-unit1',
      body: assessmentLineItemBody({
        title: 'Unit 1 test',
        class: ref('cls-alg-1'),
        resultValueMin: 0,
        resultValueMax: 100,
        learningObjectiveSet: objectives,
      }),
    },
    {
      collection: 'assessmentLineItems',
      id: 'ali-unit1-a',
      body: assessmentLineItemBody({
        title: 'Unit 1, part A',
        parentAssessmentLineItem: ref('ali-unit1'),
        scoreScale: ref('ss-letter'),
      }),
    },
    {
      collection: 'assessmentLineItems',
      id: 'ali-old',
      body: assessmentLineItemBody({ title: 'Old test' }),
      deleted: true,
    },
    {
      collection: 'assessmentResults',
      id: 'ar-unit1-s01',
      body: assessmentResultBody({ score: 88, scorePercentile: 75.5 }),
    },
    // Assessment results need a student, not an enrollment in the assessment's class.
    {
      collection: 'assessmentResults',
      id: 'ar-unit1-s02',
      body: assessmentResultBody({
        student: ref('usr-s-02'),
        scoreStatus: 'not submitted',
        score: undefined,
        missing: 'true',
      }),
    },
    {
      collection: 'assessmentResults',
      id: 'ar-a-s01',
      body: assessmentResultBody({
        assessmentLineItem: ref('ali-unit1-a'),
        score: undefined,
        textScore: 'A',
        scoreScale: ref('ss-letter'),
      }),
    },
    {
      collection: 'assessmentResults',
      id: 'ar-old',
      body: assessmentResultBody({ student: ref('usr-s-03') }),
      deleted: true,
    },
  ];
}

/** The school tenant's v1.2 gradebook: ids that collide with the district's on purpose. */
export function schoolV1p2Gradebook(): FixtureWrite[] {
  return [
    { collection: 'categories', id: 'cat-hw', body: { category: { title: 'Hausaufgaben' } } },
    { collection: 'scoreScales', id: 'ss-letter', body: scoreScaleBody({ class: ref('bv-cls-1') }) },
    {
      collection: 'lineItems',
      id: 'li-bv-1',
      body: lineItemBody({ title: 'Spelling', class: ref('bv-cls-1'), school: ref('org-b1') }),
    },
    {
      collection: 'results',
      id: 'r-hw1-s01',
      body: resultBody({ lineItem: ref('li-bv-1'), student: ref('usr-s-01') }),
    },
    { collection: 'assessmentLineItems', id: 'ali-unit1', body: assessmentLineItemBody({ class: ref('bv-cls-1') }) },
    { collection: 'assessmentResults', id: 'ar-unit1-s01', body: assessmentResultBody({ student: ref('bv-s-02') }) },
  ];
}

/** Every v1.2 gradebook write scope. */
export const V1P2_WRITE_SCOPES = [
  SCOPE_V1P2.gradebookPut,
  SCOPE_V1P2.gradebookDelete,
  SCOPE_V1P2.assessmentPut,
  SCOPE_V1P2.assessmentDelete,
  SCOPE_V1P2.gradebookPost,
];
/** Every v1.2 gradebook read scope. */
export const V1P2_READ_SCOPES = [SCOPE_V1P2.gradebook, SCOPE_V1P2.assessment];

/** Writes a fixture through the v1.2 API with `token` (PUTs answer 201, DELETEs 204). */
export async function writeV1p2Gradebook(
  h: RosterHarness,
  writes: readonly FixtureWrite[],
  token: string,
): Promise<void> {
  for (const w of writes) {
    const res = await v1p2(h, 'gradebook', 'put', `${w.collection}/${encodeURIComponent(w.id)}`, token, w.body);
    if (res.status !== 201) throw new Error(`PUT ${w.collection}/${w.id}: ${res.status} ${res.text}`);
  }
  for (const w of [...writes].reverse().filter((x) => x.deleted)) {
    const res = await v1p2(h, 'gradebook', 'delete', `${w.collection}/${encodeURIComponent(w.id)}`, token);
    if (res.status !== 204) throw new Error(`DELETE ${w.collection}/${w.id}: ${res.status} ${res.text}`);
  }
}

export interface V1p2World {
  /** District tenant (root org-d1) and school tenant (root org-b1), both with the fixtures written. */
  D: TenantSetup;
  S: TenantSetup;
  /** District app token with every v1.2 gradebook scope. */
  all: string;
  schoolAll: string;
}

/** Starts the harness, loads both rostering fixtures and writes both v1.2 gradebooks. */
export async function startV1p2World(h: RosterHarness): Promise<V1p2World> {
  await h.start();
  const D = await h.tenant({ rootOrg: 'org-d1' });
  const S = await h.tenant({ rootOrg: 'org-b1' });
  await loadFixture(h, D, districtFixture());
  await loadFixture(h, S, schoolFixture());
  const all = await h.token(D, [...V1P2_READ_SCOPES, ...V1P2_WRITE_SCOPES]);
  const schoolAll = await h.token(S, [...V1P2_READ_SCOPES, ...V1P2_WRITE_SCOPES]);
  await writeV1p2Gradebook(h, districtV1p2Gradebook(), all);
  await writeV1p2Gradebook(h, schoolV1p2Gradebook(), schoolAll);
  return { D, S, all, schoolAll };
}

/** What a schema check needs of an answer (supertest's or a raw one). */
export interface Answer {
  readonly status: number;
  readonly text: string;
  readonly headers: Record<string, unknown>;
  readonly body: unknown;
}

/**
 * Checks an answer's body against the schema the OAS gives its operation and status (none: no
 * body). A PUT that replaces answers 200, which the OAS does not list (reference v1.2 §13 #8):
 * its body is the stored object in the operation's Single wrapper, the request schema.
 */
export function expectOasAnswer(
  res: Answer,
  method: string,
  path: string,
  options: { fields?: true | readonly string[]; service?: V1p2Service } = {},
): void {
  const service = options.service ?? 'gradebook';
  const replaced = method.toUpperCase() === 'PUT' && res.status === 200;
  const schema = replaced
    ? findV1p2Operation(service, method, path).requestSchema
    : responseSchemaOf(service, method, path, res.status);
  if (schema === null) {
    expect(res.text ?? '').toBe('');
    return;
  }
  expect(res.headers['content-type']).toMatch(/^application\/json/);
  expectV1p2(service, schema, res.body, options);
}

/** The sourcedIds of a collection answer, in order. */
export const idsOf = (list: Array<{ sourcedId: string }>) => list.map((o) => o.sourcedId);

/** Rows of a gradebook table for a tenant (nothing-written checks). */
export async function rowCount(h: RosterHarness, table: string, tenantId: string): Promise<number> {
  return Number((await h.ds.query(`SELECT count(*)::int AS n FROM ${table} WHERE tenant_id = $1`, [tenantId]))[0].n);
}
