import { ScopeCatalog } from '@edu/domain';
import { createTestDatabase, type TestDatabase } from '@edu/testing';
import { clientToken } from './http';
import { buildServices, startService, type ServiceProcess } from './processes';
import { rosterZip } from './roster-zip';

const catalog = new ScopeCatalog({
  schemaBase: 'https://api.edu.example',
  onerosterBase: 'https://purl.imsglobal.org/spec/or/v1p1/scope',
});
const OPERATOR = { id: 'operator', secret: 'e2e-operator-secret-onboarding' };
const ONEROSTER = '/ims/oneroster/v1p1';

/** A one-school OneRoster v1.1 CSV package (reference §11): a school, a school year and two users. */
function rosterPackage(): Promise<Buffer> {
  return rosterZip({
    'manifest.csv': [
      ['propertyName', 'value'],
      ['manifest.version', '1.0'],
      ['oneroster.version', '1.1'],
      ['file.orgs', 'bulk'],
      ['file.academicSessions', 'bulk'],
      ['file.users', 'bulk'],
      ['source.systemName', 'Seaview SIS'],
    ],
    'orgs.csv': [
      ['sourcedId', 'status', 'dateLastModified', 'name', 'type', 'identifier', 'parentSourcedId'],
      ['org-seaview', '', '', 'Seaview Primary', 'school', 'NSW-9001', ''],
    ],
    'academicSessions.csv': [
      [
        'sourcedId',
        'status',
        'dateLastModified',
        'title',
        'type',
        'startDate',
        'endDate',
        'parentSourcedId',
        'schoolYear',
      ],
      ['as-2025', '', '', '2025', 'schoolYear', '2025-01-28', '2025-12-19', '', '2025'],
    ],
    'users.csv': [
      [
        'sourcedId',
        'status',
        'dateLastModified',
        'enabledUser',
        'orgSourcedIds',
        'role',
        'username',
        'userIds',
        'givenName',
        'familyName',
        'middleName',
        'identifier',
        'email',
        'sms',
        'phone',
        'agentSourcedIds',
        'grades',
        'password',
      ],
      [
        'usr-sam',
        '',
        '',
        'true',
        'org-seaview',
        'student',
        'sam.lee',
        '',
        'Sam',
        'Lee',
        '',
        '1001',
        'sam@seaview.example',
        '',
        '',
        '',
        '05',
        '',
      ],
      [
        'usr-tess',
        '',
        '',
        'false',
        'org-seaview',
        'teacher',
        'tess.ong',
        '',
        'Tess',
        'Ong',
        '',
        '',
        'tess@seaview.example',
        '',
        '',
        '',
        '',
        '',
      ],
    ],
  });
}

/**
 * A new school onboarded with HTTP calls alone, as the operator would without shell access: the
 * identity and OneRoster services run as separate processes on one database, and a partner's
 * stock OAuth client reads the school's roster with the per-deployment credentials it was given.
 * Then the school flips a deployment setting through the identity API and the next OneRoster
 * answer changes format (design §8).
 */
describe('onboarding a school over HTTP (identity + OneRoster processes)', () => {
  let db: TestDatabase;
  let identity: ServiceProcess;
  let oneroster: ServiceProcess;

  beforeAll(async () => {
    buildServices();
    db = await createTestDatabase();
    identity = await startService('identity', {
      DATABASE_URL: db.url,
      OPERATOR_CLIENT_ID: OPERATOR.id,
      OPERATOR_CLIENT_SECRET: OPERATOR.secret,
    });
    oneroster = await startService('oneroster', {
      DATABASE_URL: db.url,
      TOKEN_ISSUER: 'http://localhost:3000', // the identity process's default issuer
      JWKS_URL: `${identity.url}/.well-known/jwks.json`,
      PUBLIC_BASE_URL: 'https://roster.e2e.example',
      // A deployment's settings are remembered for 1 ms only, so a change shows in the next answer.
      ONEROSTER_TENANT_CACHE_TTL_MS: '1',
      ONEROSTER_DATA_VERSION_TTL_MS: '0',
    });
  });

  afterAll(async () => {
    await Promise.all([oneroster?.stop(), identity?.stop()]);
    await db?.drop();
  });

  const token = (clientId: string, secret: string, form: Record<string, string> = {}) =>
    clientToken(identity.url, { id: clientId, secret }, form);

  /** A JSON call to the identity API; fails the test unless the answer has `status`. */
  async function identityCall<T = Record<string, unknown>>(
    bearer: string,
    method: string,
    path: string,
    status: number,
    body?: unknown,
  ): Promise<T> {
    const res = await fetch(`${identity.url}${path}`, {
      method,
      headers: {
        Authorization: `Bearer ${bearer}`,
        ...(body === undefined ? {} : { 'Content-Type': 'application/json' }),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const json = await res.json();
    expect({ call: `${method} ${path}`, status: res.status, json }).toMatchObject({ status });
    return json as T;
  }

  async function roster<T = Record<string, unknown>>(bearer: string, path: string): Promise<T> {
    const res = await fetch(`${oneroster.url}${ONEROSTER}${path}`, { headers: { Authorization: `Bearer ${bearer}` } });
    const json = await res.json();
    expect({ path, status: res.status, json }).toMatchObject({ status: 200 });
    return json as T;
  }

  /** Uploads the package with the operator import endpoint and waits for the import to finish. */
  async function importRoster(operator: string, tenantId: string): Promise<void> {
    const res = await fetch(`${oneroster.url}/admin/tenants/${tenantId}/roster-imports`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${operator}`, 'Content-Type': 'application/zip' },
      body: await rosterPackage(),
    });
    let view = ((await res.json()) as { import: { status: string } }).import;
    expect([201, 202]).toContain(res.status);
    const location = res.headers.get('location') as string;
    for (let i = 0; view.status === 'running' && i < 100; i++) {
      await new Promise((r) => setTimeout(r, 100));
      const poll = await fetch(`${oneroster.url}${location}`, { headers: { Authorization: `Bearer ${operator}` } });
      view = ((await poll.json()) as { import: { status: string } }).import;
    }
    expect(view).toMatchObject({ status: 'succeeded' });
  }

  const state: {
    tenantId?: string;
    partner?: { id: string; secret: string };
    adminApp?: { id: string; secret: string };
    appId?: string;
  } = {};

  it('the operator onboards tenant, developer, app, deployment (roster + alerts scopes, settings) and credentials; the partner reads the roster', async () => {
    const operator = await token(OPERATOR.id, OPERATOR.secret);

    const tenant = await identityCall<{ id: string }>(operator, 'POST', '/tenants', 201, {
      name: 'Seaview Primary',
      customer_id: 880001,
      govt_id: 'NSW-9001',
      region: 'AU-NSW',
      licences: ['data-operations'],
      root_org_sourced_id: 'org-seaview',
    });
    const developer = await identityCall<{ id: string }>(operator, 'POST', '/developers', 201, {
      name: 'Brightpath Learning',
      email: 'partners@brightpath.example',
    });
    const app = await identityCall<{ id: string; client_id: string; client_secret: string }>(
      operator,
      'POST',
      '/apps',
      201,
      {
        name: 'Class Roster Sync',
        auth_type: 'oauth2',
        oauth2: { redirect_uris: ['https://sync.brightpath.example/callback'] },
        owner: { type: 'developer', id: developer.id },
      },
    );
    const scope = [
      catalog.uri('roster-core.readonly'),
      catalog.uri('alerts.messages.read'),
      catalog.uri('alerts.webhooks.write'),
    ];
    const deployment = await identityCall(operator, 'POST', `/tenants/${tenant.id}/apps`, 201, {
      app_id: app.id,
      scope,
      settings: { oneroster_booleans: 'string' },
    });
    expect(deployment).toMatchObject({
      scope,
      settings: { oneroster_date_format: 'compact', oneroster_booleans: 'string' },
    });
    const creds = await identityCall<{ client_id: string; client_secret: string }>(
      operator,
      'POST',
      `/tenants/${tenant.id}/apps/${app.id}/secret`,
      200,
    );

    await importRoster(operator, tenant.id);

    // a fresh partner token from the per-deployment credentials alone (a stock OAuth client)
    const partner = await token(creds.client_id, creds.client_secret);
    const session = await roster<{ academicSession: Record<string, unknown> }>(partner, '/academicSessions/as-2025');
    expect(session.academicSession).toMatchObject({ sourcedId: 'as-2025', startDate: '20250128', endDate: '20251219' });
    expect(session.academicSession.dateLastModified).toMatch(/^\d{8}T\d{6}\.\d{3}Z$/);
    const users = await roster<{ users: { sourcedId: string; enabledUser: unknown }[] }>(partner, '/users');
    expect(users.users.map((u) => [u.sourcedId, u.enabledUser])).toEqual([
      ['usr-sam', 'true'],
      ['usr-tess', 'false'],
    ]);

    Object.assign(state, {
      tenantId: tenant.id,
      appId: app.id,
      partner: { id: creds.client_id, secret: creds.client_secret },
    });
  });

  it('the school flips its deployment to ISO 8601 dates and JSON booleans; the next OneRoster answer changes format', async () => {
    expect(state.partner).toBeDefined();
    const { tenantId, appId, partner } = state as Required<typeof state>;
    const operator = await token(OPERATOR.id, OPERATOR.secret);
    // the school's own admin console: a tenant-owned app with tenant-core.write, set up by the operator
    const adminConsole = await identityCall<{ id: string; client_id: string; client_secret: string }>(
      operator,
      'POST',
      '/apps',
      201,
      {
        name: 'Seaview Admin Console',
        auth_type: 'oauth2',
        oauth2: { redirect_uris: ['https://admin.seaview.example/callback'] },
        owner: { type: 'tenant', id: tenantId },
      },
    );
    await identityCall(operator, 'POST', `/tenants/${tenantId}/apps`, 201, {
      app_id: adminConsole.id,
      scope: [catalog.uri('id.tenant-core.write')],
    });
    const school = await token(adminConsole.client_id, adminConsole.client_secret, { tenant_id: tenantId });

    // the partner's token stays the same: settings are read per request, not baked into tokens
    const partnerToken = await token(partner.id, partner.secret);
    const before = await roster<{ academicSession: Record<string, unknown> }>(
      partnerToken,
      '/academicSessions/as-2025',
    );
    expect(before.academicSession.startDate).toBe('20250128');

    const changed = await identityCall(school, 'PATCH', `/tenants/${tenantId}/apps/${appId}`, 200, {
      settings: { oneroster_date_format: 'iso8601', oneroster_booleans: 'json' },
    });
    expect(changed).toMatchObject({ settings: { oneroster_date_format: 'iso8601', oneroster_booleans: 'json' } });

    const after = await roster<{ academicSession: Record<string, unknown> }>(partnerToken, '/academicSessions/as-2025');
    expect(after.academicSession).toMatchObject({ startDate: '2025-01-28', endDate: '2025-12-19' });
    expect(after.academicSession.dateLastModified).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);
    const users = await roster<{ users: { sourcedId: string; enabledUser: unknown }[] }>(partnerToken, '/users');
    expect(users.users.map((u) => [u.sourcedId, u.enabledUser])).toEqual([
      ['usr-sam', true],
      ['usr-tess', false],
    ]);

    // the school's own console deployment was not touched
    const own = await identityCall<{ settings: unknown }[]>(
      school,
      'GET',
      `/tenants/${tenantId}/apps/${adminConsole.id}`,
      200,
    );
    expect(own[0].settings).toEqual({
      oneroster_date_format: 'compact',
      oneroster_booleans: 'string',
      oneroster_profile: 'strict',
    });

    // and back: only the named setting changes
    await identityCall(school, 'PATCH', `/tenants/${tenantId}/apps/${appId}`, 200, {
      settings: { oneroster_date_format: 'compact' },
    });
    const back = await roster<{ academicSession: Record<string, unknown> }>(partnerToken, '/academicSessions/as-2025');
    expect(back.academicSession.startDate).toBe('20250128');
    const stillJson = await roster<{ user: { enabledUser: unknown } }>(partnerToken, '/users/usr-sam');
    expect(stillJson.user.enabledUser).toBe(true);
  });

  it('the school cannot grant itself alerts scopes, and the partner cannot use the identity API', async () => {
    const { tenantId, appId, partner } = state as Required<typeof state>;
    const operator = await token(OPERATOR.id, OPERATOR.secret);
    const apps = await identityCall<{ id: string; owner: { type: string } }[]>(operator, 'GET', '/apps', 200);
    const consoleApp = apps.find((a) => a.owner.type === 'tenant') as { id: string };
    const creds = await identityCall<{ client_id: string; client_secret: string }>(
      operator,
      'POST',
      `/apps/${consoleApp.id}/secret`,
      200,
    );
    const school = await token(creds.client_id, creds.client_secret, { tenant_id: tenantId });
    const refused = await identityCall<{ error: string; fields: { field: string }[] }>(
      school,
      'PATCH',
      `/tenants/${tenantId}/apps/${consoleApp.id}`,
      400,
      {
        scope: [catalog.uri('id.tenant-core.write'), catalog.uri('alerts.webhooks.write')],
      },
    );
    expect(refused).toMatchObject({ error: 'validation_failed', fields: [{ field: 'scope' }] });
    const partnerToken = await token(partner.id, partner.secret);
    await identityCall(partnerToken, 'GET', `/tenants/${tenantId}/apps/${appId}`, 403);
    await identityCall(partnerToken, 'POST', '/developers', 403, { name: 'X', email: 'x@x.example' });
  });
});
