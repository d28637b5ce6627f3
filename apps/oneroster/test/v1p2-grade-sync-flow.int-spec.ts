import { randomUUID } from 'node:crypto';
import { DEFAULT_ONEROSTER_V1P2_SCOPE_BASE } from '@edu/domain';
import { RosterHarness, type TenantSetup } from './support/harness';
import {
  clientCredentialsToken,
  IDENTITY_ISSUER,
  startIdentity,
  type IdentityProcess,
} from './support/identity-process';
import { loadFixture } from './support/load';
import { listening, rawRequest, type RawAnswer } from './support/raw-http';
import { districtFixture } from './support/roster-fixture';
import { V1P2 } from './support/v1p2';
import { expectOasAnswer } from './support/v1p2-gradebook';
import { responseSchemaOf, validateV1p2 } from './support/v1p2/oas-schemas';

const scope = (name: string) => `${DEFAULT_ONEROSTER_V1P2_SCOPE_BASE}/${name}`;
/** The four scopes Google's 1.2 notebook asks for, in one token request (reference v1.2 §11.1). */
const GOOGLE_SCOPES = ['roster.readonly', 'gradebook.readonly', 'gradebook.createput', 'gradebook.delete'].map(scope);

function expectRosteringAnswer(res: RawAnswer, target: string): void {
  const schema = responseSchemaOf('rostering', 'GET', target, res.status) as string;
  expect(validateV1p2('rostering', schema, res.body)).toEqual([]);
}

/**
 * Google Classroom's OneRoster 1.2 grade-sync suite (reference v1.2 §11.2), its 20 steps in
 * order with their exact requests, against the real identity service (its own process) for the
 * token: per-deployment client credentials, HTTP Basic, `grant_type=client_credentials` and the
 * four v1.2 scopes in one request. Every answer is checked against the official schemas.
 */
describe('Google Classroom OneRoster 1.2 grade sync', () => {
  const h = new RosterHarness();
  let identity: IdentityProcess;
  let tenant: TenantSetup;
  let creds: { id: string; secret: string };
  let port: number;

  beforeAll(async () => {
    await h.start(async (db) => {
      identity = await startIdentity(db.url);
      return { JWKS_URL: identity.jwksUrl, TOKEN_ISSUER: IDENTITY_ISSUER };
    });
    tenant = await h.tenant({ rootOrg: 'org-d1' });
    await loadFixture(h, tenant, districtFixture());
    // The school's gradebook categories (from its SIS import): every class needs one (step 5).
    await h.ds.query(
      `INSERT INTO gradebook_categories (tenant_id, sourced_id, status, date_last_modified, title) VALUES ($1, 'cat-assignments', 'active', now(), 'Assignments')`,
      [tenant.tenantId],
    );
    const dev = await h.world.developer('Google Classroom');
    const { app } = await h.world.app({ type: 'developer', id: dev.id }, 'Classroom grade sync');
    const deployment = await h.world.deploy(app.id, tenant.tenantId, GOOGLE_SCOPES, { withCredentials: true });
    creds = { id: deployment.clientId as string, secret: deployment.clientSecret as string };
    port = await listening(h.app.getHttpServer());
  }, 120_000);

  afterAll(async () => {
    await h.stop();
    await identity?.stop();
  });

  it('gets a token for exactly the granted subset of the scopes it asks for', async () => {
    const exact = await clientCredentialsToken(identity.url, creds.id, creds.secret, GOOGLE_SCOPES.join(' '));
    expect(exact.status).toBe(200);
    expect(exact.body).toMatchObject({ token_type: 'Bearer', scope: GOOGLE_SCOPES.join(' ') });
    const more = await clientCredentialsToken(
      identity.url,
      creds.id,
      creds.secret,
      [...GOOGLE_SCOPES, scope('resource.readonly'), scope('gradebook.createpost')].join(' '),
    );
    expect(more.status).toBe(200);
    expect((more.body.scope as string).split(' ').sort()).toEqual([...GOOGLE_SCOPES].sort());
  });

  it('runs the 20 steps of the notebook', async () => {
    const granted = await clientCredentialsToken(identity.url, creds.id, creds.secret, GOOGLE_SCOPES.join(' '));
    expect(granted.status).toBe(200);
    const token = granted.body.access_token as string;
    const call = async (
      method: string,
      service: 'rostering' | 'gradebook',
      target: string,
      body?: unknown,
      contentType?: string,
    ): Promise<RawAnswer> => {
      const res = await rawRequest(port, method, `${V1P2[service]}/${target}`, {
        token,
        body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body),
        contentType,
      });
      const path = target.split('?')[0] as string;
      if (service === 'rostering') expectRosteringAnswer(res, path);
      else expectOasAnswer(res, method, path);
      return res;
    };
    const ok = (res: RawAnswer, status = 200) => {
      if (res.status !== status) throw new Error(`expected ${status}, got ${res.status} ${res.text}`);
      return res.body as Record<string, Array<Record<string, unknown>>> & Record<string, Record<string, unknown>>;
    };

    // 1. GetAllTeachers
    ok(await call('GET', 'rostering', 'teachers?limit=1'));
    // 2. GetAllTeachers with the e-mail filter, not URL-encoded
    const teachers = ok(
      await call('GET', 'rostering', "teachers?filter=email='ada@riverside.example'&limit=10000"),
    ).users;
    expect(teachers).toHaveLength(1);
    expect(teachers[0]).toMatchObject({ email: 'ada@riverside.example', sourcedId: 'usr-t-01' });
    const teacher = teachers[0]?.sourcedId as string;
    // 3. GetClassesForTeacher
    const classes = ok(await call('GET', 'rostering', `teachers/${teacher}/classes?limit=10000&filter=status='active'`))
      .classes as unknown as Array<{
      sourcedId: string;
      school: { sourcedId: string };
      terms: Array<{ sourcedId: string }>;
    }>;
    const cls = classes[0]?.sourcedId as string;
    const school = classes[0]?.school.sourcedId as string;
    const term = classes[0]?.terms[0]?.sourcedId as string;
    expect([cls, school, term]).toEqual(['cls-alg-1', 'org-s1', 'as-t1']);
    // 4. GetStudentsForClass: the first student has an e-mail
    const students = ok(await call('GET', 'rostering', `classes/${cls}/students?limit=10000`)).users;
    expect(students[0]).toHaveProperty('email');
    const student = students[0]?.sourcedId as string;
    // 5. GetCategoriesForClass, with a stray form body on the GET
    const categories = ok(
      await call(
        'GET',
        'gradebook',
        `classes/${cls}/categories?limit=10000`,
        'limit=10000',
        'application/x-www-form-urlencoded',
      ),
    ).categories;
    const category = categories[0]?.sourcedId as string;
    expect(category).toBe('cat-assignments');
    // 6. GetGradingPeriodsForTerm
    const periods = ok(await call('GET', 'rostering', `terms/${term}/gradingPeriods?limit=10000`)).academicSessions;
    expect(Object.keys(periods[0] ?? {})).toEqual(
      expect.arrayContaining(['sourcedId', 'title', 'startDate', 'endDate', 'schoolYear']),
    );
    expect(periods.length).toBeGreaterThan(0);
    for (const p of periods) expect(p.type).toBe('gradingPeriod');

    // 7. PutLineItem Create: 201 exactly
    const lineItemId = randomUUID();
    const lineItem = (title: string) => ({
      lineItem: {
        sourcedId: lineItemId,
        title,
        description: 'New test item description',
        resultValueMin: 0,
        resultValueMax: 100,
        assignDate: '2025-09-01T10:00:00.123Z',
        dueDate: '2025-09-01T10:01:00.123Z',
        class: { sourcedId: cls },
        category: { sourcedId: category },
        school: { sourcedId: school },
      },
    });
    const created = await call('PUT', 'gradebook', `lineItems/${lineItemId}`, lineItem('New test item'));
    ok(created, 201);
    expect(created.text).toBe('');
    // 8. GetLineItemsForClass
    const listed = ok(await call('GET', 'gradebook', `classes/${cls}/lineItems?limit=10000`)).lineItems;
    expect(listed.map((l) => l.sourcedId)).toContain(lineItemId);
    // 9. PutLineItem Edit with a 112-character title: 200
    const longTitle = `[Amended] Real${'l'.repeat(64)}y Long Google Test Line Item Title`;
    expect(longTitle).toHaveLength(112);
    expect(ok(await call('PUT', 'gradebook', `lineItems/${lineItemId}`, lineItem(longTitle))).lineItem).toMatchObject({
      sourcedId: lineItemId,
      title: longTitle,
      status: 'active',
    });
    // 10. Assignment Title Limit
    const edited = ok(await call('GET', 'gradebook', `classes/${cls}/lineItems?limit=10000`)).lineItems.find(
      (l) => l.sourcedId === lineItemId,
    );
    expect((edited?.title as string).length).toBe(112);

    // 11. PutResult Create: DateTime scoreDate, empty comment, no class/status/dateLastModified
    const resultId = randomUUID();
    const result = (over: Record<string, unknown>) => ({
      result: {
        sourcedId: resultId,
        score: 80,
        comment: '',
        scoreStatus: 'fully graded',
        scoreDate: '2025-09-02T10:00:00.000Z',
        lineItem: { sourcedId: lineItemId },
        student: { sourcedId: student },
        ...over,
      },
    });
    ok(await call('PUT', 'gradebook', `results/${resultId}`, result({})), 201);
    const resultsPath = `classes/${cls}/lineItems/${lineItemId}/results?limit=10000`;
    const find = async () =>
      ok(await call('GET', 'gradebook', resultsPath)).results.find((r) => r.sourcedId === resultId);
    // 12. GetResultsForLineItem
    expect(await find()).toMatchObject({ score: 80, scoreDate: '2025-09-02' });
    // 13. PutResult Edit: extra credit, 14. Result Extra Credit
    ok(await call('PUT', 'gradebook', `results/${resultId}`, result({ score: 300 })));
    expect((await find())?.score).toBe(300);
    // 15. PutResult Exempt, 16. GetResultsForLineItem Exempt
    ok(await call('PUT', 'gradebook', `results/${resultId}`, result({ score: 80, scoreStatus: 'exempt' })));
    expect((await find())?.scoreStatus).toBe('exempt');
    const before = (await find())?.dateLastModified as string;

    // 17. DeleteResult, 18. GetResultsForLineItem (Deleted)
    ok(await call('DELETE', 'gradebook', `results/${resultId}`), 204);
    expect(await find()).toBeUndefined();
    // 19. DeleteLineItem, 20. GetLineItemsForClass (Deleted)
    ok(await call('DELETE', 'gradebook', `lineItems/${lineItemId}`), 204);
    expect(
      ok(await call('GET', 'gradebook', `classes/${cls}/lineItems?limit=10000`)).lineItems.map((l) => l.sourcedId),
    ).not.toContain(lineItemId);

    // A delta reader still learns of both deletions.
    const since = encodeURIComponent(`dateLastModified>'${before}'`);
    const deltaItems = ok(
      await call('GET', 'gradebook', `classes/${cls}/lineItems?limit=10000&filter=${since}`),
    ).lineItems;
    expect(deltaItems.filter((l) => l.sourcedId === lineItemId)).toEqual([
      expect.objectContaining({ status: 'tobedeleted', title: longTitle }),
    ]);
    const deltaResults = ok(
      await call('GET', 'gradebook', `classes/${cls}/results?limit=10000&filter=${since}`),
    ).results;
    expect(deltaResults.filter((r) => r.sourcedId === resultId)).toEqual([
      expect.objectContaining({ status: 'tobedeleted', scoreStatus: 'exempt' }),
    ]);
  });
});
