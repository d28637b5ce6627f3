import { randomUUID } from 'node:crypto';
import { DEFAULT_ONEROSTER_SCOPE_BASE } from '@edu/domain';
import { HREF_ROOT, RosterHarness, type TenantSetup } from './support/harness';
import {
  clientCredentialsToken,
  IDENTITY_ISSUER,
  OPERATOR,
  startIdentity,
  type IdentityProcess,
} from './support/identity-process';
import { expectImsxError, parseLinks } from './support/imsx';
import { loadFixture } from './support/load';
import { districtFixture } from './support/roster-fixture';

const ISO_DATETIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
const scope = (name: string) => `${DEFAULT_ONEROSTER_SCOPE_BASE}/${name}`;

/**
 * A grade-sync client (Google Classroom's grade export, Microsoft SDS grade sync) end to end:
 * the school hands it a OneRoster key and secret (per-deployment credentials), it gets a token
 * from the real identity service by client credentials, finds a teacher by e-mail, their classes
 * and students, then pushes a line item and results and reads each change back.
 */
describe('grade-sync client flow', () => {
  const h = new RosterHarness();
  let identity: IdentityProcess;
  let tenant: TenantSetup;
  let creds: { id: string; secret: string };
  let appId: string;

  beforeAll(async () => {
    await h.start(async (db) => {
      identity = await startIdentity(db.url);
      return { JWKS_URL: identity.jwksUrl, TOKEN_ISSUER: IDENTITY_ISSUER };
    });
    tenant = await h.tenant({ rootOrg: 'org-d1' });
    await loadFixture(h, tenant, districtFixture());
    const dev = await h.world.developer('Classroom Partner');
    const { app } = await h.world.app({ type: 'developer', id: dev.id }, 'Grade Sync');
    appId = app.id;
    const granted = ['roster.readonly', 'gradebook.readonly', 'gradebook.createput', 'gradebook.delete'].map(scope);
    const deployment = await h.world.deploy(app.id, tenant.tenantId, granted, { withCredentials: true });
    creds = { id: deployment.clientId as string, secret: deployment.clientSecret as string };
  }, 120_000);

  afterAll(async () => {
    await h.stop();
    await identity?.stop();
  });

  it('token, teacher, classes, students, then a line item and its results written, edited and deleted', async () => {
    // 1. Token by client credentials, asking for roster and gradebook scopes (no tenant_id: the key names the deployment).
    const asked = ['roster.readonly', 'gradebook.readonly', 'gradebook.createput', 'gradebook.delete']
      .map(scope)
      .join(' ');
    const granted = await clientCredentialsToken(identity.url, creds.id, creds.secret, asked);
    expect(granted.status).toBe(200);
    expect(granted.body).toMatchObject({ token_type: 'Bearer', scope: asked });
    const token = granted.body.access_token as string;

    // The school turns on the consumer compatibility profile over the identity API (operator).
    const op = await clientCredentialsToken(identity.url, OPERATOR.id, OPERATOR.secret);
    expect(op.status).toBe(200);
    const patched = await fetch(`${identity.url}/tenants/${tenant.tenantId}/apps/${appId}`, {
      method: 'PATCH',
      headers: { Authorization: `Bearer ${op.body.access_token as string}`, 'Content-Type': 'application/json' },
      body: JSON.stringify({ settings: { oneroster_profile: 'compatibility' } }),
    });
    expect(patched.status).toBe(200);

    // 2. The teacher, found by e-mail (case as the SIS wrote it does not matter).
    const teachers = await h
      .get(`teachers?filter=${encodeURIComponent("email='Ada@Riverside.example'")}&limit=10000`, token)
      .expect(200);
    expect(teachers.body.users.map((u: { sourcedId: string }) => u.sourcedId)).toEqual(['usr-t-01']);
    expect(teachers.body.users[0].dateLastModified).toMatch(ISO_DATETIME);

    // 3. Their classes, and 4. a class's students, with the large page sizes these clients ask for.
    const classes = await h.get('teachers/usr-t-01/classes?limit=10000', token).expect(200);
    expect(classes.body.classes.map((c: { sourcedId: string }) => c.sourcedId)).toEqual(['cls-alg-1', 'cls-alg-2']);
    const students = await h
      .get(`classes/cls-alg-1/students?limit=10000&filter=${encodeURIComponent("status='active'")}`, token)
      .expect(200);
    const studentIds: string[] = students.body.users.map((u: { sourcedId: string }) => u.sourcedId);
    expect(studentIds).toEqual(['usr-s-01', 'usr-s-03', 'usr-s-05', 'usr-s-07', 'usr-s-09', 'usr-s-11', 'usr-s-13']);
    expect(parseLinks(students.headers['link']).first?.searchParams.get('limit')).toBe('1000');

    // 5. A line item as the client creates it: its own id, no category, no grading period.
    const lineItemId = randomUUID();
    const body = (title: string) => ({
      lineItem: {
        sourcedId: lineItemId,
        title,
        description: 'Chapter 3',
        assignDate: '2024-02-05T08:00:00Z',
        dueDate: '2024-02-12T23:59:59.000Z',
        class: { sourcedId: 'cls-alg-1', type: 'class' },
        resultValueMin: 0,
        resultValueMax: 100,
      },
    });
    const created = await h.put(`lineItems/${lineItemId}`, body('Quadratics quiz'), token).expect(201);
    expect(created.headers['location']).toBe(`${HREF_ROOT}/lineItems/${lineItemId}`);
    expect(created.body.lineItem).toMatchObject({
      sourcedId: lineItemId,
      status: 'active',
      title: 'Quadratics quiz',
      assignDate: '2024-02-05T08:00:00.000Z',
      dueDate: '2024-02-12T23:59:59.000Z',
    });
    expect(created.body.lineItem.dateLastModified).toMatch(ISO_DATETIME);
    expect((await h.get(`lineItems/${lineItemId}`, token).expect(200)).body.lineItem).toEqual(created.body.lineItem);

    //    ...renamed with a long title (teachers paste whole instructions).
    const longTitle =
      `Quadratics quiz — ${'solve each equation, show all working, and check your roots by substitution; '.repeat(20)}`.trim();
    const renamed = await h.put(`lineItems/${lineItemId}`, body(longTitle), token).expect(200);
    expect(renamed.body.lineItem.title).toBe(longTitle);
    const listed = await h.get('classes/cls-alg-1/lineItems?limit=10000', token).expect(200);
    expect(listed.body.lineItems).toEqual([renamed.body.lineItem]);

    // 6. Results for every student, read back.
    const resultId = (student: string) => `${lineItemId}:${student}`;
    for (const [i, student] of studentIds.entries()) {
      const res = await h
        .put(
          `results/${encodeURIComponent(resultId(student))}`,
          {
            result: {
              lineItem: { sourcedId: lineItemId },
              student: { sourcedId: student },
              scoreStatus: 'fully graded',
              score: 60 + i * 5,
              scoreDate: '2024-02-13',
            },
          },
          token,
        )
        .expect(201);
      expect(res.body.result).toMatchObject({
        student: { sourcedId: student, type: 'user' },
        score: 60 + i * 5,
        scoreDate: '2024-02-13',
      });
    }
    const results = await h.get(`classes/cls-alg-1/lineItems/${lineItemId}/results?limit=10000`, token).expect(200);
    expect(results.headers['x-total-count']).toBe(String(studentIds.length));
    expect(
      results.body.results.map((r: { student: { sourcedId: string }; score: number }) => [
        r.student.sourcedId,
        r.score,
      ]),
    ).toEqual(studentIds.map((s, i) => [s, 60 + i * 5]));

    //    Edited: extra credit above resultValueMax is kept.
    const extra = resultId('usr-s-03');
    const edited = await h
      .put(
        `results/${encodeURIComponent(extra)}`,
        {
          result: {
            lineItem: { sourcedId: lineItemId },
            student: { sourcedId: 'usr-s-03' },
            scoreStatus: 'fully graded',
            score: 104.5,
            scoreDate: '2024-02-14',
            comment: 'Bonus question',
          },
        },
        token,
      )
      .expect(200);
    expect(edited.body.result).toMatchObject({ score: 104.5, comment: 'Bonus question' });
    expect((await h.get(`results/${encodeURIComponent(extra)}`, token).expect(200)).body.result.score).toBe(104.5);

    //    Set exempt: no score.
    const exempt = resultId('usr-s-05');
    const exempted = await h
      .put(
        `results/${encodeURIComponent(exempt)}`,
        {
          result: {
            lineItem: { sourcedId: lineItemId },
            student: { sourcedId: 'usr-s-05' },
            scoreStatus: 'exempt',
            scoreDate: '2024-02-14',
          },
        },
        token,
      )
      .expect(200);
    expect(exempted.body.result.scoreStatus).toBe('exempt');
    expect(exempted.body.result).not.toHaveProperty('score');
    expect((await h.get(`classes/cls-alg-1/students/usr-s-05/results`, token).expect(200)).body.results).toEqual([
      exempted.body.result,
    ]);

    //    Deleted: gone for reads, a tombstone for the delta feed.
    const gone = resultId('usr-s-13');
    const before = (await h.get(`results/${encodeURIComponent(gone)}`, token).expect(200)).body.result
      .dateLastModified as string;
    await h.delete(`results/${encodeURIComponent(gone)}`, token).expect(204);
    expectImsxError(await h.get(`results/${encodeURIComponent(gone)}`, token), 404, 'unknownobject');
    const delta = await h
      .get(`classes/cls-alg-1/results?limit=10000&filter=${encodeURIComponent(`dateLastModified>'${before}'`)}`, token)
      .expect(200);
    expect(delta.body.results.find((r: { sourcedId: string }) => r.sourcedId === gone)).toMatchObject({
      status: 'tobedeleted',
    });
    const active = await h
      .get(`classes/cls-alg-1/results?filter=${encodeURIComponent("status='active'")}`, token)
      .expect(200);
    expect(active.body.results).toHaveLength(studentIds.length - 1);

    // The token holds no resource scope: the resources service stays closed to it.
    expectImsxError(await h.get('resources', token), 403, 'forbidden');
  });

  it('gets only the scopes the deployment was granted', async () => {
    const asked = `${scope('roster.readonly')} ${scope('resource.readonly')}`;
    const res = await clientCredentialsToken(identity.url, creds.id, creds.secret, asked);
    expect(res.status).toBe(200);
    expect(res.body.scope).toBe(scope('roster.readonly'));
    const readOnly = res.body.access_token as string;
    expectImsxError(await h.put(`categories/c-1`, { category: { title: 'x' } }, readOnly), 403, 'forbidden');
    expectImsxError(await h.get('lineItems', readOnly), 403, 'forbidden');
  });
});
