import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { Client } from 'pg';
import { ScopeCatalog } from '@edu/domain';
import { sampleAlertMessage, testRedis, WebhookReceiver } from '@edu/testing';
import { clientToken, jsonCall } from './http';
import { startPostgres, type PostgresServer } from './infra';
import { LOCAL_WEBHOOKS } from './partner-world';
import { buildServices, startService, type ServiceProcess } from './processes';
import { rosterZip } from './roster-zip';

const root = path.resolve(__dirname, '..', '..');
const catalog = new ScopeCatalog({
  schemaBase: 'https://api.edu.example',
  onerosterBase: 'https://purl.imsglobal.org/spec/or/v1p1/scope',
});
const OPERATOR = { id: 'operator', secret: 'e2e-operator-secret-regional' };
const KEY_ENCRYPTION_KEY = 'e2e-regional-key-encryption-key-0123456789';
const ONEROSTER = '/ims/oneroster/v1p1';
const SCOPES = [
  catalog.uri('roster-core.readonly'),
  catalog.uri('alerts.messages.read'),
  catalog.uri('alerts.webhooks.write'),
];

/** Runs a persistence CLI (`npm run db:migrate`, `db:cleanup-orphans`) as its own process. */
async function cli(entry: string, env: Record<string, string>, args: string[] = []): Promise<string> {
  const { stdout } = await promisify(execFile)(
    process.execPath,
    [path.join(root, 'tools/runtime/run-dist.js'), `libs/persistence/src/cli/${entry}`, ...args],
    {
      cwd: root,
      env: { PATH: process.env.PATH ?? '', ...env },
    },
  );
  return stdout;
}

/** A one-school OneRoster v1.1 CSV package: a school and two users. */
function rosterPackage(): Promise<Buffer> {
  return rosterZip({
    'manifest.csv': [
      ['propertyName', 'value'],
      ['manifest.version', '1.0'],
      ['oneroster.version', '1.1'],
      ['file.orgs', 'bulk'],
      ['file.users', 'bulk'],
    ],
    'orgs.csv': [
      ['sourcedId', 'status', 'dateLastModified', 'name', 'type', 'identifier', 'parentSourcedId'],
      ['org-harbour', '', '', 'Harbour High', 'school', 'NSW-7001', ''],
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
        'usr-ada',
        '',
        '',
        'true',
        'org-harbour',
        'student',
        'ada.k',
        '',
        'Ada',
        'King',
        '',
        '',
        '',
        '',
        '',
        '',
        '09',
        '',
      ],
      ['usr-ben', '', '', 'true', 'org-harbour', 'teacher', 'ben.o', '', 'Ben', 'Ola', '', '', '', '', '', '', '', ''],
    ],
  });
}

/**
 * A regional stack as deployed: identity on the global PostgreSQL (wal_level=logical), oneroster,
 * alerts and the dispatcher on a regional PostgreSQL with SERVICE_REGION, and nothing between the
 * two databases but the logical replication `npm run db:migrate` sets up from configuration. A
 * tenant and an app provisioned through the identity API are served by the regional services
 * within seconds, and the dispatcher signs with the webhook key the identity service created.
 */
describe('regional stack fed by logical replication (two PostgreSQL servers, separate processes)', () => {
  const dirs: string[] = [];
  let global: PostgresServer;
  let regional: PostgresServer;
  let g: Client;
  let r: Client;
  let identity: ServiceProcess;
  let oneroster: ServiceProcess;
  let alerts: ServiceProcess;
  let dispatcher: ServiceProcess;
  let receiver: WebhookReceiver;
  let migrateOutput: { global: string; regional: string };

  beforeAll(async () => {
    buildServices();
    dirs.push(
      fs.mkdtempSync(path.join(os.tmpdir(), 'edu-e2e-global-')),
      fs.mkdtempSync(path.join(os.tmpdir(), 'edu-e2e-regional-')),
    );
    [global, regional] = await Promise.all([
      startPostgres({ dataDir: dirs[0], durable: false, settings: { wal_level: 'logical' } }),
      startPostgres({ dataDir: dirs[1], durable: false }),
    ]);
    // The documented order: migrate (and publish) the global database, then migrate (and subscribe) the region.
    migrateOutput = {
      global: await cli('migrate', { DATABASE_URL: global.url, REPLICATION_ROLE: 'publisher' }),
      regional: await cli('migrate', {
        DATABASE_URL: regional.url,
        REPLICATION_ROLE: 'subscriber',
        REPLICATION_SOURCE_URL: global.url,
        SERVICE_REGION: 'AU-NSW',
      }),
    };
    g = new Client({ connectionString: global.url });
    r = new Client({ connectionString: regional.url });
    await Promise.all([g.connect(), r.connect()]);

    identity = await startService('identity', {
      DATABASE_URL: global.url,
      TOKEN_ISSUER: 'http://identity.e2e',
      OPERATOR_CLIENT_ID: OPERATOR.id,
      OPERATOR_CLIENT_SECRET: OPERATOR.secret,
      KEY_ENCRYPTION_KEY,
    });
    const jwks = `${identity.url}/.well-known/jwks.json`;
    const redis = testRedis();
    const region = {
      DATABASE_URL: regional.url,
      SERVICE_REGION: 'AU-NSW',
      TOKEN_ISSUER: 'http://identity.e2e',
      JWKS_URL: jwks,
      REDIS_URL: redis.url,
      QUEUE_PREFIX: redis.prefix,
    };
    [oneroster, alerts, dispatcher] = await Promise.all([
      startService('oneroster', {
        ...region,
        PUBLIC_BASE_URL: 'https://au-nsw.e2e.example',
        ONEROSTER_TENANT_CACHE_TTL_MS: '0',
        ONEROSTER_DATA_VERSION_TTL_MS: '0',
      }),
      startService('alerts', { ...region, ...LOCAL_WEBHOOKS, KEY_ENCRYPTION_KEY }),
      startService('webhook-dispatcher', {
        ...region,
        ...LOCAL_WEBHOOKS,
        KEY_ENCRYPTION_KEY,
        ALERTS_PUBLIC_BASE_URL: 'https://au-nsw.e2e.example',
        WEBHOOK_RETRY_BASE_MS: '200',
        WEBHOOK_RELAY_INTERVAL_MS: '500',
      }),
    ]);
    receiver = await new WebhookReceiver({ jwksUrl: jwks }).start();
  }, 90_000);

  afterAll(async () => {
    await Promise.all([dispatcher?.stop(), alerts?.stop(), oneroster?.stop(), identity?.stop()]);
    await receiver?.stop();
    await Promise.all([g?.end(), r?.end()]);
    // The subscriber first: its workers hold connections to the publisher.
    await regional?.stop();
    await global?.stop();
    for (const d of dirs) fs.rmSync(d, { recursive: true, force: true });
  });

  const token = (clientId: string, secret: string, form: Record<string, string> = {}) =>
    clientToken(identity.url, { id: clientId, secret }, form);
  const operatorToken = () => clientToken(identity.url, OPERATOR);

  /** Operator onboarding through the identity API: a tenant of `region`, a developer's app deployed there. */
  async function provision(
    region: string,
    customerId: number,
  ): Promise<{ tenantId: string; appId: string; clientId: string; secret: string }> {
    const operator = await operatorToken();
    const tenant = await jsonCall<{ id: string }>('POST', `${identity.url}/tenants`, operator, {
      name: `School ${customerId}`,
      customer_id: customerId,
      govt_id: `G-${customerId}`,
      region,
      licences: ['data-operations'],
    });
    expect(tenant.status).toBe(201);
    const developer = await jsonCall<{ id: string }>('POST', `${identity.url}/developers`, operator, {
      name: `Partner ${customerId}`,
      email: `partner-${customerId}@partner.example`,
    });
    const app = await jsonCall<{ id: string; client_id: string; client_secret: string }>(
      'POST',
      `${identity.url}/apps`,
      operator,
      {
        name: `Wellbeing ${customerId}`,
        auth_type: 'oauth2',
        oauth2: { redirect_uris: ['https://partner.example/callback'] },
        owner: { type: 'developer', id: developer.body.id },
      },
    );
    expect(app.status).toBe(201);
    expect(
      (
        await jsonCall('POST', `${identity.url}/tenants/${tenant.body.id}/apps`, operator, {
          app_id: app.body.id,
          scope: SCOPES,
        })
      ).status,
    ).toBe(201);
    return {
      tenantId: tenant.body.id,
      appId: app.body.id,
      clientId: app.body.client_id,
      secret: app.body.client_secret,
    };
  }

  /** Polls until `probe` is true; resolves the wait in ms. */
  async function within(ms: number, what: string, probe: () => Promise<boolean>): Promise<number> {
    const started = Date.now();
    while (!(await probe())) {
      if (Date.now() - started > ms) throw new Error(`${what}: not within ${ms} ms`);
      await new Promise((res) => setTimeout(res, 50));
    }
    return Date.now() - started;
  }

  const state: { tenantId?: string; appId?: string; webhookId?: string } = {};

  it('sets up replication from configuration: publication on the global database, subscription on the regional one', () => {
    expect(migrateOutput.global).toContain('Replication (publisher): signing_keys: replica identity FULL');
    expect(migrateOutput.global).toContain('publication edu_identity_reference created');
    expect(migrateOutput.regional).toContain('subscription edu_identity_au_nsw created');
  });

  it('serves rostering reads and webhook registration for a tenant and app provisioned at identity, within seconds', async () => {
    const p = await provision('AU-NSW', 710001);
    const partner = await token(p.clientId, p.secret, { tenant_id: p.tenantId });
    const operator = await operatorToken();

    // The regional services never call identity: the tenant and its deployment arrive by replication.
    const lag = await within(
      5_000,
      'the regional OneRoster API serves the new tenant',
      async () => (await jsonCall('GET', `${oneroster.url}${ONEROSTER}/users`, partner)).status === 200,
    );
    console.info(`identity data reached the regional API ${lag} ms after the deployment was created`);

    const upload = await fetch(`${oneroster.url}/admin/tenants/${p.tenantId}/roster-imports`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${operator}`, 'Content-Type': 'application/zip' },
      body: await rosterPackage(),
    });
    expect([201, 202]).toContain(upload.status);
    const location = upload.headers.get('location') as string;
    await within(
      10_000,
      'the roster import finishes',
      async () =>
        (await jsonCall<{ import: { status: string } }>('GET', `${oneroster.url}${location}`, operator)).body.import
          .status !== 'running',
    );
    expect(
      (await jsonCall<{ import: { status: string } }>('GET', `${oneroster.url}${location}`, operator)).body.import
        .status,
    ).toBe('succeeded');
    const users = await jsonCall<{ users: { sourcedId: string }[] }>(
      'GET',
      `${oneroster.url}${ONEROSTER}/users`,
      partner,
    );
    expect(users.status).toBe(200);
    expect(users.body.users.map((u) => u.sourcedId)).toEqual(['usr-ada', 'usr-ben']);

    // As a partner client would: a 503 (the app's row not here yet) is retried after a moment.
    let hook: { status: number; body: { webhook_id: string; success: boolean } } | undefined;
    await within(5_000, 'the webhook is registered at the regional alerts API', async () => {
      hook = await jsonCall<{ webhook_id: string; success: boolean }>(
        'POST',
        `${alerts.url}/v2/alerts/webhook`,
        partner,
        { endpoint: `${receiver.url}/au`, type: 'full-payload' },
      );
      return hook.status !== 503;
    });
    expect(hook).toMatchObject({ status: 200, body: { success: true } });
    Object.assign(state, { tenantId: p.tenantId, appId: p.appId, webhookId: hook?.body.webhook_id });
  });

  it('delivers an alert signed with the webhook key identity created and published (replicated, never created regionally)', async () => {
    expect(state.webhookId).toBeDefined();
    const submitted = await jsonCall<{ messages: { message_id: string; deliveries: number }[] }>(
      'POST',
      `${alerts.url}/v2/alerts/messages`,
      await operatorToken(),
      {
        tenant_id: state.tenantId,
        messages: [sampleAlertMessage()],
      },
    );
    expect(submitted.status).toBe(201);
    const [message] = submitted.body.messages;
    expect(message.deliveries).toBe(1);
    await within(15_000, 'the delivery arrives', async () =>
      receiver.deliveries.some((d) => d.claims.sub === message.message_id),
    );
    const delivery = receiver.deliveries.find((d) => d.claims.sub === message.message_id)!;
    expect(delivery).toMatchObject({
      path: '/au',
      verified: true,
      claims: { iss: 'http://identity.e2e', aud: state.appId, tenant_id: state.tenantId },
    });

    const globalKeys = (await g.query(`SELECT kid FROM signing_keys WHERE use = 'webhook' ORDER BY kid`)).rows;
    expect(globalKeys).toEqual([{ kid: delivery.header.kid }]);
    // The regional copy holds the webhook key only (no access-token key) and nothing made locally.
    expect((await r.query('SELECT kid, use FROM signing_keys')).rows).toEqual([
      { kid: delivery.header.kid, use: 'webhook' },
    ]);
  });

  it('refuses a tenant of another region on the regional host, once its data has arrived', async () => {
    const sg = await provision('SG', 710002);
    await within(
      5_000,
      'the SG deployment reaches the regional database',
      async () =>
        (await r.query('SELECT 1 FROM tenant_app_deployments WHERE tenant_id = $1', [sg.tenantId])).rowCount === 1,
    );
    const partner = await token(sg.clientId, sg.secret, { tenant_id: sg.tenantId });
    expect(await jsonCall('GET', `${oneroster.url}${ONEROSTER}/users`, partner)).toMatchObject({ status: 403 });
    expect(
      await jsonCall('POST', `${alerts.url}/v2/alerts/webhook`, partner, {
        endpoint: `${receiver.url}/sg`,
        type: 'full-payload',
      }),
    ).toMatchObject({ status: 403, body: { error: 'wrong_region' } });
  });

  it('deletions at identity replicate without breaking regional data; db:cleanup-orphans then removes what they left', async () => {
    const { tenantId, appId } = state as Required<typeof state>;
    const operator = await operatorToken();
    expect((await jsonCall('DELETE', `${identity.url}/apps/${appId}`, operator)).status).toBe(204);
    expect((await jsonCall('DELETE', `${identity.url}/tenants/${tenantId}`, operator)).status).toBe(204);
    await within(5_000, 'the deletes reach the regional database', async () => {
      const { rows } = await r.query(
        'SELECT (SELECT count(*) FROM apps WHERE id = $1)::int + (SELECT count(*) FROM tenants WHERE id = $2)::int AS n',
        [appId, tenantId],
      );
      return rows[0].n === 0;
    });
    const count = async (sql: string, id: string) => (await r.query(sql, [id])).rows[0].n as number;
    expect(await count('SELECT count(*)::int AS n FROM roster_users WHERE tenant_id = $1', tenantId)).toBe(2);
    expect(await count('SELECT count(*)::int AS n FROM webhooks WHERE app_id = $1', appId)).toBe(1);

    const output = await cli('cleanup-orphans', { DATABASE_URL: regional.url });
    expect(output).toContain('roster_users: removed 2 row(s)');
    expect(output).toContain('webhooks: removed 1 row(s)');
    for (const table of ['roster_users', 'roster_orgs', 'roster_data_versions', 'roster_imports', 'alert_messages']) {
      expect({
        table,
        n: await count(`SELECT count(*)::int AS n FROM ${table} WHERE tenant_id = $1`, tenantId),
      }).toEqual({ table, n: 0 });
    }
    expect(await count('SELECT count(*)::int AS n FROM webhooks WHERE app_id = $1', appId)).toBe(0);
  });
});
