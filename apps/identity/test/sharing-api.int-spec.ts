import type { TenantEntity } from '@edu/persistence';
import { expectError } from '@edu/testing';
import { bearer, IdentityHarness } from './support/harness';

const CLASSES_SPEC = { mode: 'classes', classes: ['cls-2', 'cls-1', 'cls-1'], withhold: ['contact'] };

describe('Identity API: data sharing per deployment and the audit trail', () => {
  let h: IdentityHarness;
  let A: TenantEntity;
  let B: TenantEntity;
  let appId: string;
  let otherAppId: string;
  let admin: string;
  let reader: string;
  let otherAdmin: string;
  let operator: string;
  const path = (tenant: string, app: string, tail = '') => `/tenants/${tenant}/apps/${app}/sharing${tail}`;

  beforeAll(async () => {
    h = await IdentityHarness.start();
    const w = h.world();
    [A, B] = [await w.tenant({ name: 'School A' }), await w.tenant({ name: 'School B' })];
    const app = await w.app({ type: 'tenant', id: A.id }, 'Maths Games');
    await w.deploy(app.app.id, A.id, []);
    appId = app.app.id;
    const other = await w.app({ type: 'tenant', id: B.id }, 'Library');
    await w.deploy(other.app.id, B.id, []);
    otherAppId = other.app.id;
    admin = await h.tenantToken(A.id, ['id.tenant-core.write']);
    reader = await h.tenantToken(A.id, ['id.tenant-core.readonly']);
    otherAdmin = await h.tenantToken(B.id, ['id.tenant-core.write']);
    operator = await h.operatorToken();
  });

  afterAll(() => h?.stop());

  it('starts as today: everything shared, no draft', async () => {
    const res = await h.http().get(path(A.id, appId)).set(bearer(admin)).expect(200);
    expect(res.body).toEqual({
      active: { mode: 'all', schools: [], classes: [], rules: [], withhold: [], activated_at: null },
      draft: null,
    });
  });

  it('refuses no token, a bad token, the wrong scope, another tenant and unknown ids', async () => {
    expectError(await h.http().get(path(A.id, appId)), 401, 'invalid_token');
    expectError(await h.http().get(path(A.id, appId)).set(bearer('not.a.token')), 401, 'invalid_token');
    expectError(await h.http().get(path(A.id, appId)).set(bearer(reader)), 403, 'insufficient_scope');
    expectError(
      await h.http().put(path(A.id, appId)).set(bearer(reader)).send(CLASSES_SPEC),
      403,
      'insufficient_scope',
    );
    expectError(await h.http().get(path(A.id, appId)).set(bearer(otherAdmin)), 404, 'not_found');
    expectError(await h.http().get(path(B.id, otherAppId)).set(bearer(admin)), 404, 'not_found');
    expectError(await h.http().get(path(A.id, otherAppId)).set(bearer(admin)), 404, 'not_found');
    expectError(await h.http().get(path(A.id, 'not-a-uuid')).set(bearer(admin)), 404, 'not_found');
    expectError(
      await h.http().get(path('00000000-0000-4000-8000-000000000000', appId)).set(bearer(operator)),
      404,
      'not_found',
    );
    expectError(
      await h
        .http()
        .post(path(A.id, otherAppId, '/activate'))
        .set(bearer(admin)),
      404,
      'not_found',
    );
  });

  it('refuses bad bodies with 400 naming the field, and writes nothing', async () => {
    const bad = async (body: unknown, field: string) => {
      const res = await h
        .http()
        .put(path(A.id, appId))
        .set(bearer(admin))
        .send(body as object);
      expectError(res, 400, 'validation_failed');
      expect(res.body.fields.map((f: { field: string }) => f.field)).toContain(field);
    };
    await bad({ mode: 'sections' }, 'mode');
    await bad(
      { mode: 'rules', rules: [{ object: 'course', field: 'title', op: 'is', value: 'x' }] },
      'rules[0].object',
    );
    await bad({ mode: 'rules', rules: [{ object: 'class', field: 'colour', op: 'is', value: 'x' }] }, 'rules[0].field');
    await bad({ mode: 'rules', rules: [{ object: 'user', field: 'role', op: 'like', value: 'x' }] }, 'rules[0].op');
    await bad(
      { mode: 'rules', rules: [{ object: 'user', field: 'role', op: 'in', value: 'student' }] },
      'rules[0].value',
    );
    await bad({ mode: 'rules', rules: [] }, 'rules');
    await bad({ mode: 'all', withhold: ['shoe_size'] }, 'withhold');
    // Over 10,000 entries the body guard of every route refuses the list before it is read.
    const long = await h
      .http()
      .put(path(A.id, appId))
      .set(bearer(admin))
      .send({ mode: 'classes', classes: Array.from({ length: 10_001 }, (_, i) => `c${i}`) });
    expect([long.status, long.body.message]).toEqual([400, expect.stringContaining('more than 10000 members')]);
    await bad(
      { mode: 'rules', rules: [{ object: 'user', field: 'grade', op: 'in', value: Array(10_000).fill(7) }] },
      'rules[0].value',
    );
    await bad({ mode: 'all', extra: true }, 'extra');
    const text = await h
      .http()
      .put(path(A.id, appId))
      .set(bearer(admin))
      .set('Content-Type', 'text/plain')
      .send('mode=all');
    expect([400, 415]).toContain(text.status);
    const after = await h.http().get(path(A.id, appId)).set(bearer(admin)).expect(200);
    expect(after.body.draft).toBeNull();
  });

  it('saves a draft without changing what the app sees, then activates it atomically; no draft is a 409', async () => {
    expectError(
      await h
        .http()
        .post(path(A.id, appId, '/activate'))
        .set(bearer(admin)),
      409,
      'conflict',
    );
    const saved = await h.http().put(path(A.id, appId)).set(bearer(admin)).send(CLASSES_SPEC).expect(200);
    expect(saved.body.active.mode).toBe('all');
    expect(saved.body.draft).toEqual({
      mode: 'classes',
      schools: [],
      classes: ['cls-1', 'cls-2'],
      rules: [],
      withhold: ['contact'],
      saved_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
    });
    const activated = await h
      .http()
      .post(path(A.id, appId, '/activate'))
      .set(bearer(admin))
      .expect(200);
    expect(activated.body.draft).toBeNull();
    expect(activated.body.active).toEqual({
      mode: 'classes',
      schools: [],
      classes: ['cls-1', 'cls-2'],
      rules: [],
      withhold: ['contact'],
      activated_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
    });
    expectError(
      await h
        .http()
        .post(path(A.id, appId, '/activate'))
        .set(bearer(admin)),
      409,
      'conflict',
    );
    const [version] = await h.ds.query('SELECT version FROM sharing_versions WHERE tenant_id = $1', [A.id]);
    expect(version.version).toBe('1');
  });

  it('lets exactly one of concurrent activations win; nothing is half-applied', async () => {
    const rules = { mode: 'rules', rules: [{ object: 'class', field: 'subject', op: 'is', value: 'Mathematics' }] };
    await h.http().put(path(A.id, appId)).set(bearer(operator)).send(rules).expect(200);
    const before = await h.ds.query('SELECT version FROM sharing_versions WHERE tenant_id = $1', [A.id]);
    const answers = await Promise.all(
      Array.from({ length: 6 }, () =>
        h
          .http()
          .post(path(A.id, appId, '/activate'))
          .set(bearer(admin)),
      ),
    );
    expect(answers.map((a) => a.status).sort()).toEqual([200, 409, 409, 409, 409, 409]);
    const after = await h.ds.query('SELECT version FROM sharing_versions WHERE tenant_id = $1', [A.id]);
    expect(Number(after[0].version)).toBe(Number(before[0].version) + 1);
    const activations = await h.ds.query(
      `SELECT count(*)::int AS n FROM audit_events WHERE tenant_id = $1 AND type = 'sharing.activated'`,
      [A.id],
    );
    expect(activations[0].n).toBe(2);
  });

  it('previews a draft: counts per collection and the listed sourcedIds nothing matches; 409 without a draft', async () => {
    expectError(
      await h
        .http()
        .get(path(A.id, appId, '/preview'))
        .set(bearer(admin)),
      409,
      'conflict',
    );
    await h.http().put(path(A.id, appId)).set(bearer(admin)).send(CLASSES_SPEC).expect(200);
    const res = await h
      .http()
      .get(path(A.id, appId, '/preview?state=draft'))
      .set(bearer(admin))
      .expect(200);
    expect(res.body.state).toBe('draft');
    expect(Object.keys(res.body.collections).sort()).toEqual(
      [
        'academicSessions',
        'classes',
        'courses',
        'demographics',
        'enrollments',
        'lineItems',
        'orgs',
        'resources',
        'results',
        'schools',
        'students',
        'teachers',
        'users',
      ].sort(),
    );
    expect(res.body.collections.classes).toEqual({ count: 0, first: [] });
    expect(res.body.unmatched).toEqual({ schools: [], classes: ['cls-1', 'cls-2'] });
    const active = await h
      .http()
      .get(path(A.id, appId, '/preview?state=active'))
      .set(bearer(admin))
      .expect(200);
    expect(active.body.sharing.mode).toBe('rules');
    expectError(
      await h
        .http()
        .get(path(A.id, appId, '/preview?state=later'))
        .set(bearer(admin)),
      400,
      'validation_failed',
    );
  });

  it('records every change in the audit trail: who, when, before and after, paged and filtered by type', async () => {
    const all = await h.http().get(`/tenants/${A.id}/audit-events`).set(bearer(reader)).expect(200);
    expect(all.body.length).toBeGreaterThanOrEqual(4);
    const activation = all.body.find((e: { type: string }) => e.type === 'sharing.activated');
    expect(activation).toEqual({
      id: expect.any(String),
      time: expect.any(String),
      tenant_id: A.id,
      type: 'sharing.activated',
      actor: { kind: 'tenant', sub: expect.any(String), client_id: expect.any(String) },
      app_id: appId,
      before: expect.objectContaining({ mode: expect.any(String) }),
      after: expect.objectContaining({ mode: expect.any(String) }),
    });
    const first = all.body[all.body.length - 1];
    expect(first.before).toBeNull();
    expect(first.after).toEqual({
      mode: 'classes',
      schools: [],
      classes: ['cls-1', 'cls-2'],
      rules: [],
      withhold: ['contact'],
    });
    const times = all.body.map((e: { time: string }) => e.time);
    expect([...times].sort().reverse()).toEqual(times);

    const page = await h
      .http()
      .get(`/tenants/${A.id}/audit-events?type=sharing.activated&limit=1`)
      .set(bearer(admin))
      .expect(200);
    expect(page.body.map((e: { type: string }) => e.type)).toEqual(['sharing.activated']);
    const next = /<([^>]+)>; rel="next"/.exec(page.headers['link'] as string)?.[1] as string;
    const second = await h.http().get(next).set(bearer(admin)).expect(200);
    expect(second.body.map((e: { type: string }) => e.type)).toEqual(['sharing.activated']);
    expect(second.body[0].id).not.toBe(page.body[0].id);

    const byOperator = await h.http().get(`/tenants/${A.id}/audit-events`).set(bearer(operator)).expect(200);
    expect(byOperator.body.some((e: { actor: { kind: string } }) => e.actor.kind === 'operator')).toBe(true);
    expect((await h.http().get(`/tenants/${B.id}/audit-events`).set(bearer(otherAdmin)).expect(200)).body).toEqual([]);
    expectError(await h.http().get(`/tenants/${B.id}/audit-events`).set(bearer(admin)), 404, 'not_found');
    expectError(
      await h.http().get(`/tenants/${A.id}/audit-events?type=login`).set(bearer(admin)),
      400,
      'validation_failed',
    );
    expectError(
      await h.http().get(`/tenants/${A.id}/audit-events?cursor=abc`).set(bearer(admin)),
      400,
      'validation_failed',
    );
    expectError(await h.http().get(`/tenants/${A.id}/audit-events`), 401, 'invalid_token');
  });
});
