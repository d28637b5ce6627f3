import { RosterHarness, SCOPE } from './support/harness';
import { expectImsxError } from './support/imsx';
import { SCOPE_V1P2, expectV1p2Error, v1p2, type V1p2Method } from './support/v1p2';
import { V1P2_OPERATIONS, type V1p2Operation } from './support/v1p2/oas-schemas';
import {
  assessmentLineItemBody,
  assessmentResultBody,
  expectOasAnswer,
  lineItemBody,
  resultBody,
  scoreScaleBody,
  startV1p2World,
  type V1p2World,
} from './support/v1p2-gradebook';

/** Every gradebook operation of the official OAS (reference v1.2 §9.2), as the tests call it. */
const OPERATIONS = V1P2_OPERATIONS.filter((op) => op.service === 'gradebook');

/** An existing object per collection, for reads; PUT and DELETE use a new id of their own. */
const EXISTING: Record<string, string> = {
  categories: 'cat-quiz',
  lineItems: 'li-alg2-hw1',
  results: 'r-alg2-s02',
  scoreScales: 'ss-pass',
  assessmentLineItems: 'ali-unit1-a',
  assessmentResults: 'ar-a-s01',
};
const PATH_IDS: Record<string, string> = {
  classSourcedId: 'cls-alg-1',
  lineItemSourcedId: 'li-alg1-hw1',
  studentSourcedId: 'usr-s-01',
  schoolSourcedId: 'org-s1',
  academicSessionSourcedId: 'as-gp1',
};
const PUT_BODIES: Record<string, unknown> = {
  categories: { category: { title: 'Access' } },
  lineItems: lineItemBody(),
  results: resultBody(),
  scoreScales: scoreScaleBody(),
  assessmentLineItems: assessmentLineItemBody(),
  assessmentResults: assessmentResultBody(),
};

const SCOPE_URI: Record<string, string> = {
  'gradebook-core.readonly': SCOPE_V1P2.gradebookCore,
  'gradebook.readonly': SCOPE_V1P2.gradebook,
  'gradebook.createput': SCOPE_V1P2.gradebookPut,
  'gradebook.createpost': SCOPE_V1P2.gradebookPost,
  'gradebook.delete': SCOPE_V1P2.gradebookDelete,
  'assessment.readonly': SCOPE_V1P2.assessment,
  'assessment.createput': SCOPE_V1P2.assessmentPut,
  'assessment.delete': SCOPE_V1P2.assessmentDelete,
};

interface Call {
  readonly path: string;
  readonly body?: unknown;
}

/** A concrete request for an operation: path ids filled in, a valid body for writes. */
function callOf(op: V1p2Operation, fresh: string): Call {
  const collection = op.path.split('/')[1] as string;
  const path = op.path.replace(/\{(\w+)\}/g, (_m, name: string) =>
    name === 'sourcedId'
      ? op.method === 'GET'
        ? (EXISTING[collection] as string)
        : fresh
      : (PATH_IDS[name] as string),
  );
  if (op.method === 'PUT') return { path, body: PUT_BODIES[collection] };
  if (op.method === 'POST') return { path, body: { [op.path.endsWith('/lineItems') ? 'lineItems' : 'results']: [] } };
  return { path };
}

const method = (op: V1p2Operation) => op.method.toLowerCase() as V1p2Method;
const label = (op: V1p2Operation) => `${op.operationId} ${op.method} ${op.path}`;

describe('OneRoster 1.2 gradebook: every operation and its scopes', () => {
  const h = new RosterHarness();
  let w: V1p2World;

  beforeAll(async () => {
    w = await startV1p2World(h);
  }, 60_000);
  afterAll(() => h.stop());

  it('covers the 35 operations of the gradebook OAS', () => {
    expect(OPERATIONS).toHaveLength(35);
  });

  it.each(OPERATIONS.map((op) => [label(op), op] as const))(
    '%s: 401 without a token or with a forged one',
    async (_label, op) => {
      const { path, body } = callOf(op, 'acc-401');
      const res = await v1p2(h, 'gradebook', method(op), path, undefined, body);
      expectV1p2Error(res, 'gradebook', 401, 'unauthorisedrequest');
      expectOasAnswer(res, op.method, path);
      const forged = await h.issuer.attackTokens({
        scopes: op.scopes.map((s) => SCOPE_URI[s] as string),
        tenantId: w.D.tenantId,
        deploymentId: w.D.deploymentId,
        sub: w.D.appId,
      });
      for (const name of ['expired', 'HS256 signed with the public key', 'unknown kid'])
        expectV1p2Error(
          await v1p2(h, 'gradebook', method(op), path, forged[name], body),
          'gradebook',
          401,
          'unauthorisedrequest',
        );
    },
  );

  it.each(OPERATIONS.map((op) => [label(op), op] as const))(
    '%s: 403 with every v1.1 scope, or every v1.2 scope but its own',
    async (_label, op) => {
      const { path, body } = callOf(op, 'acc-403');
      const v1p1 = await h.token(w.D, Object.values(SCOPE));
      const others = Object.entries(SCOPE_URI)
        .filter(([name]) => !op.scopes.includes(name))
        .map(([, uri]) => uri);
      for (const token of [v1p1, await h.token(w.D, [...others, SCOPE_V1P2.roster, SCOPE_V1P2.resource])]) {
        const res = await v1p2(h, 'gradebook', method(op), path, token, body);
        expectV1p2Error(res, 'gradebook', 403, 'forbidden');
        expectOasAnswer(res, op.method, path);
      }
    },
  );

  it.each(OPERATIONS.map((op) => [label(op), op] as const))(
    '%s: served with each scope the OAS lists for it',
    async (_label, op) => {
      for (const [i, scope] of op.scopes.entries()) {
        const { path, body } = callOf(op, `acc-ok-${op.operationId}-${i}`);
        const token = await h.token(w.D, [SCOPE_URI[scope] as string]);
        if (op.method === 'DELETE') {
          const collection = op.path.split('/')[1] as string;
          const writer = await h.token(w.D, Object.values(SCOPE_URI));
          await v1p2(h, 'gradebook', 'put', path, writer, PUT_BODIES[collection]).expect(201);
        }
        const res = await v1p2(h, 'gradebook', method(op), path, token, body);
        const success = Object.keys(op.responses).find((code) => /^2/.test(code));
        expect({ status: res.status, body: res.status === Number(success) ? undefined : res.body }).toEqual({
          status: Number(success),
          body: undefined,
        });
        expectOasAnswer(res, op.method, path);
      }
    },
  );

  it('refuses v1.2 scopes on the v1.1 gradebook (403 in the v1.1 envelope)', async () => {
    const v1p2Token = await h.token(w.D, Object.values(SCOPE_URI));
    for (const path of [
      'categories',
      'lineItems/li-alg1-hw1',
      'results',
      'classes/cls-alg-1/lineItems',
      'classes/cls-alg-1/categories',
      'classes/cls-alg-1/students/usr-s-01/results',
    ]) {
      expectImsxError(await h.get(path, v1p2Token), 403, 'forbidden');
    }
    expectImsxError(await h.put('categories/v12-on-v11', { category: { title: 'x' } }, v1p2Token), 403, 'forbidden');
    expectImsxError(await h.delete('categories/cat-quiz', v1p2Token), 403, 'forbidden');
  });

  it('answers 405 with Allow for methods a v1.2 gradebook path does not take', async () => {
    const token = await h.token(w.D, Object.values(SCOPE_URI));
    for (const [m, path, allow] of [
      ['post', 'scoreScales/ss-pass', 'GET, HEAD, PUT, DELETE'],
      ['put', 'classes/cls-alg-1/lineItems', 'GET, HEAD, POST'],
      ['get', 'schools/org-s1/lineItems', 'POST'],
      ['delete', 'lineItems/li-alg1-hw1/results', 'POST'],
      ['post', 'assessmentResults', 'GET, HEAD'],
    ] as const) {
      const res = await v1p2(h, 'gradebook', m, path, token, m === 'get' || m === 'delete' ? undefined : {});
      expect(res.status).toBe(405);
      expect(res.headers['allow']).toBe(allow);
      expect(res.body).toMatchObject({ imsx_codeMajor: 'unsupported', imsx_severity: 'error' });
    }
  });
});
