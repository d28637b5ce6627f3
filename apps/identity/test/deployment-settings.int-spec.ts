import { randomUUID } from 'node:crypto';
import type { TenantEntity } from '@edu/persistence';
import { expectError } from '@edu/testing';
import { bearer, IdentityHarness, uri } from './support/harness';
import { DEPLOYMENT, expectArrayOf, expectShape } from './support/schemas';

const DEFAULTS = { oneroster_date_format: 'compact', oneroster_booleans: 'string', oneroster_profile: 'strict' };

describe('per-deployment settings (design §8) through the identity API', () => {
  let h: IdentityHarness;
  let A: TenantEntity;
  let B: TenantEntity;
  let devId: string;
  const t: Record<string, string> = {};

  beforeAll(async () => {
    h = await IdentityHarness.start();
    const w = h.world();
    A = await w.tenant({ name: 'Alpha' });
    B = await w.tenant({ name: 'Beta' });
    devId = (await w.developer('Settings Dev')).id;
    t.aWrite = await h.tenantToken(A.id, ['id.tenant-core.write']);
    t.aRead = await h.tenantToken(A.id, ['id.tenant-core.readonly']);
    t.bWrite = await h.tenantToken(B.id, ['id.tenant-core.write']);
    t.dev = await h.developerToken(devId, ['id.apps.write']);
    t.op = await h.operatorToken();
  });

  afterAll(async () => {
    await h?.stop();
  });

  const newApp = async (name = 'Sync Tool') => (await h.world().app({ type: 'developer', id: devId }, name)).app.id;
  const deployments = (tenantId: string) => `/tenants/${tenantId}/apps`;
  const stored = async (tenantId: string, appId: string) =>
    (
      await h.ds.query('SELECT settings FROM tenant_app_deployments WHERE tenant_id = $1 AND app_id = $2', [
        tenantId,
        appId,
      ])
    )[0]?.settings;

  /** 400 validation_failed naming `field`, and nothing in the database changed. */
  async function expectRefused(
    method: 'post' | 'patch',
    path: string,
    token: string,
    body: unknown,
    field: string,
  ): Promise<void> {
    const before = await h.snapshot();
    const res = await h
      .http()
      [method](path)
      .set(bearer(token))
      .send(body as object);
    expectError(res, 400, 'validation_failed');
    expect((res.body.fields as { field: string }[]).map((f) => f.field)).toContain(field);
    expect(await h.snapshot()).toEqual(before);
  }

  it('a new deployment reads every setting with its default; the read shape is spec 2.4 plus settings', async () => {
    const appId = await newApp();
    const created = await h
      .http()
      .post(deployments(A.id))
      .set(bearer(t.aWrite))
      .send({ app_id: appId, scope: [uri('roster.readonly')] })
      .expect(201);
    expectShape(DEPLOYMENT, created.body);
    expect(created.body.settings).toEqual(DEFAULTS);
    expect(await stored(A.id, appId)).toEqual({});
    const read = await h.http().get(deployments(A.id)).set(bearer(t.aRead)).expect(200);
    expectArrayOf(DEPLOYMENT, read.body);
  });

  it('the tenant sets settings at deployment and changes one at a time; the others keep their value', async () => {
    const appId = await newApp();
    const created = await h
      .http()
      .post(deployments(A.id))
      .set(bearer(t.aWrite))
      .send({ app_id: appId, scope: [uri('roster.readonly')], settings: { oneroster_date_format: 'iso8601' } })
      .expect(201);
    expect(created.body.settings).toEqual({ ...DEFAULTS, oneroster_date_format: 'iso8601' });
    expect(await stored(A.id, appId)).toEqual({ onerosterDateFormat: 'iso8601' });

    const flipped = await h
      .http()
      .patch(`${deployments(A.id)}/${appId}`)
      .set(bearer(t.aWrite))
      .send({ settings: { oneroster_booleans: 'json' } })
      .expect(200);
    expect(flipped.body).toMatchObject({
      scope: [uri('roster.readonly')],
      settings: { oneroster_date_format: 'iso8601', oneroster_booleans: 'json' },
    });
    expect(await stored(A.id, appId)).toEqual({ onerosterDateFormat: 'iso8601', onerosterBooleans: 'json' });

    // scope alone leaves the settings; an empty settings object changes nothing
    await h
      .http()
      .patch(`${deployments(A.id)}/${appId}`)
      .set(bearer(t.aWrite))
      .send({ scope: [uri('roster-core.readonly')] })
      .expect(200);
    const same = await h
      .http()
      .patch(`${deployments(A.id)}/${appId}`)
      .set(bearer(t.aWrite))
      .send({ settings: {} })
      .expect(200);
    expect(same.body.settings).toEqual({ ...DEFAULTS, oneroster_date_format: 'iso8601', oneroster_booleans: 'json' });

    // back to a default by naming it
    const back = await h
      .http()
      .patch(`${deployments(A.id)}/${appId}`)
      .set(bearer(t.aWrite))
      .send({ settings: { oneroster_date_format: 'compact' } })
      .expect(200);
    expect(back.body.settings).toEqual({ ...DEFAULTS, oneroster_date_format: 'compact', oneroster_booleans: 'json' });
    const [one] = (
      await h
        .http()
        .get(`${deployments(A.id)}/${appId}`)
        .set(bearer(t.aRead))
        .expect(200)
    ).body;
    expect(one).toEqual(back.body);

    // the consumer compatibility profile, for stock sync clients (large limits, ISO 8601 dates)
    const compat = await h
      .http()
      .patch(`${deployments(A.id)}/${appId}`)
      .set(bearer(t.aWrite))
      .send({ settings: { oneroster_profile: 'compatibility' } })
      .expect(200);
    expect(compat.body.settings).toEqual({
      oneroster_date_format: 'compact',
      oneroster_booleans: 'json',
      oneroster_profile: 'compatibility',
    });
    expect(await stored(A.id, appId)).toEqual({
      onerosterDateFormat: 'compact',
      onerosterBooleans: 'json',
      onerosterProfile: 'compatibility',
    });
  });

  it('the operator reads and sets any tenant\u2019s deployment settings', async () => {
    const appId = await newApp();
    await h.world().deploy(appId, B.id, [uri('roster.readonly')]);
    const changed = await h
      .http()
      .patch(`${deployments(B.id)}/${appId}`)
      .set(bearer(t.op))
      .send({ settings: { oneroster_date_format: 'iso8601', oneroster_booleans: 'json' } })
      .expect(200);
    expect(changed.body).toMatchObject({
      tenant_id: B.id,
      settings: { oneroster_date_format: 'iso8601', oneroster_booleans: 'json' },
    });
    const read = await h
      .http()
      .get(`${deployments(B.id)}/${appId}`)
      .set(bearer(t.op))
      .expect(200);
    expect(read.body).toEqual([changed.body]);
    // the tenant itself sees what the operator set
    const own = await h
      .http()
      .get(`${deployments(B.id)}/${appId}`)
      .set(bearer(t.bWrite))
      .expect(200);
    expect(own.body[0].settings).toEqual(changed.body.settings);
  });

  it('the operator sets a deployment’s rate-limit quotas (null returns to the default); a tenant may not', async () => {
    const appId = await newApp('Quota Target');
    await h.world().deploy(appId, A.id, [uri('roster.readonly')]);
    const one = `${deployments(A.id)}/${appId}`;
    const set = await h
      .http()
      .patch(one)
      .set(bearer(t.op))
      .send({ settings: { rate_limit_read: 30, rate_limit_gradebook_write: 10 } })
      .expect(200);
    expect(set.body.settings).toEqual({ ...DEFAULTS, rate_limit_read: 30, rate_limit_gradebook_write: 10 });
    expect(await stored(A.id, appId)).toEqual({ rateLimitRead: 30, rateLimitGradebookWrite: 10 });
    const refused = await h
      .http()
      .patch(one)
      .set(bearer(t.aWrite))
      .send({ settings: { rate_limit_read: 100000 } });
    expectError(refused, 403, 'insufficient_scope');
    expect(refused.body.message).toContain('settings.rate_limit_read');
    // the tenant still changes its own settings, and the quotas stay
    await h
      .http()
      .patch(one)
      .set(bearer(t.aWrite))
      .send({ settings: { oneroster_profile: 'compatibility' } })
      .expect(200);
    const reset = await h
      .http()
      .patch(one)
      .set(bearer(t.op))
      .send({ settings: { rate_limit_read: null } })
      .expect(200);
    expect(reset.body.settings).toEqual({
      ...DEFAULTS,
      oneroster_profile: 'compatibility',
      rate_limit_gradebook_write: 10,
    });
    await expectRefused('patch', one, t.op, { settings: { rate_limit_write: 0 } }, 'settings.rate_limit_write');
    await expectRefused('patch', one, t.op, { settings: { rate_limit_read: 1_000_001 } }, 'settings.rate_limit_read');
    await expectRefused(
      'patch',
      one,
      t.op,
      { settings: { rate_limit_gradebook_write: '5' } },
      'settings.rate_limit_gradebook_write',
    );
  });

  describe('refusals', () => {
    let appId: string;
    beforeAll(async () => {
      appId = await newApp('Refusal Target');
      await h.world().deploy(appId, A.id, [uri('roster.readonly')]);
    });
    const one = () => `${deployments(A.id)}/${appId}`;

    it.each([
      ['an unknown setting', { settings: { oneroster_dates: 'iso8601' } }, 'settings.oneroster_dates'],
      ['the stored (camelCase) name', { settings: { onerosterDateFormat: 'iso8601' } }, 'settings.onerosterDateFormat'],
      [
        'a value outside the enum',
        { settings: { oneroster_date_format: 'ISO8601' } },
        'settings.oneroster_date_format',
      ],
      [
        'a boolean where a value is expected',
        { settings: { oneroster_booleans: true } },
        'settings.oneroster_booleans',
      ],
      ['null for a setting', { settings: { oneroster_booleans: null } }, 'settings.oneroster_booleans'],
      ['a profile that does not exist', { settings: { oneroster_profile: 'lenient' } }, 'settings.oneroster_profile'],
      [
        'a nested object for a setting',
        { settings: { oneroster_date_format: { $ne: 'x' } } },
        'settings.oneroster_date_format',
      ],
      ['settings as an array', { settings: ['iso8601'] }, 'settings'],
      ['settings as a string', { settings: 'iso8601' }, 'settings'],
      ['settings as null', { settings: null }, 'settings'],
      ['scope as null', { scope: null }, 'scope'],
    ])('PATCH refuses %s (400 naming the field, nothing written)', async (_name, body, field) => {
      await expectRefused('patch', one(), t.aWrite, body, field);
    });

    it('POST refuses a bad setting and deploys nothing', async () => {
      const fresh = await newApp();
      await expectRefused(
        'post',
        deployments(A.id),
        t.aWrite,
        { app_id: fresh, scope: [], settings: { oneroster_booleans: 'yes' } },
        'settings.oneroster_booleans',
      );
      await expectRefused(
        'post',
        deployments(A.id),
        t.op,
        { app_id: fresh, scope: [], settings: { extra: 'x' } },
        'settings.extra',
      );
    });

    it('a read-only token, a developer token and no token cannot change settings', async () => {
      const body = { settings: { oneroster_date_format: 'iso8601' } };
      expectError(await h.http().patch(one()).set(bearer(t.aRead)).send(body), 403, 'insufficient_scope');
      expectError(await h.http().patch(one()).set(bearer(t.dev)).send(body), 403, 'insufficient_scope');
      expectError(await h.http().patch(one()).send(body), 401, 'invalid_token');
      expectError(
        await h
          .http()
          .patch(one())
          .set(bearer(`${t.aWrite.slice(0, -3)}abc`))
          .send(body),
        401,
        'invalid_token',
      );
      expect(await stored(A.id, appId)).toEqual({});
    });

    it('another tenant\u2019s deployment, an unknown one and a malformed id are 404 alike', async () => {
      const body = { settings: { oneroster_date_format: 'iso8601' } };
      expectError(await h.http().patch(one()).set(bearer(t.bWrite)).send(body), 404, 'not_found');
      expectError(
        await h
          .http()
          .patch(`${deployments(B.id)}/${appId}`)
          .set(bearer(t.bWrite))
          .send(body),
        404,
        'not_found',
      );
      expectError(
        await h
          .http()
          .patch(`${deployments(A.id)}/${randomUUID()}`)
          .set(bearer(t.aWrite))
          .send(body),
        404,
        'not_found',
      );
      expectError(
        await h
          .http()
          .patch(`${deployments(A.id)}/not-a-uuid`)
          .set(bearer(t.aWrite))
          .send(body),
        404,
        'not_found',
      );
      expectError(
        await h
          .http()
          .patch(`${deployments(randomUUID())}/${appId}`)
          .set(bearer(t.op))
          .send(body),
        404,
        'not_found',
      );
      expect(await stored(A.id, appId)).toEqual({});
    });
  });

  it('the OpenAPI document describes the settings object of the read and write shapes', async () => {
    const doc = (await h.http().get('/docs-json').expect(200)).body;
    const view = doc.components.schemas.DeploymentView.properties.settings;
    expect(view.required).toEqual(['oneroster_date_format', 'oneroster_booleans', 'oneroster_profile']);
    expect(Object.keys(view.properties)).toEqual([
      'oneroster_date_format',
      'oneroster_booleans',
      'oneroster_profile',
      'rate_limit_read',
      'rate_limit_write',
      'rate_limit_gradebook_write',
    ]);
    expect(view.properties.oneroster_date_format.enum).toEqual(['compact', 'iso8601']);
    expect(doc.components.schemas.DeploymentSettingsDto.properties.oneroster_booleans.enum).toEqual(['string', 'json']);
    expect(doc.components.schemas.DeploymentSettingsDto.properties.oneroster_profile.enum).toEqual([
      'strict',
      'compatibility',
    ]);
  });
});
