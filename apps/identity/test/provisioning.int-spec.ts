import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expectError } from '@edu/testing';
import { runProvisionCli } from '../src/provisioning/provision-command';
import { bearer, IdentityHarness, uri } from './support/harness';
import {
  APP,
  CONSTITUENCY,
  DEPLOYMENT,
  expectArrayOf,
  IDENTITY_PROVIDER,
  TENANT,
  TENANT_USER,
  USER,
  VANITY_DOMAIN,
} from './support/schemas';

const DEMO_FILE = join(__dirname, '../../../tools/provision/demo.json');
const AU = '6f1c2a9e-3b4d-4e8a-9c11-2a7b5e0d4f01';
const SG = '9b8e7d6c-5a4f-4321-8fed-cba987654302';
const TABLES = [
  'developers',
  'tenants',
  'apps',
  'tenant_app_deployments',
  'identity_providers',
  'constituencies',
  'users',
  'tenant_users',
  'vanity_domains',
];

type Demo = Record<string, Record<string, unknown>[]>;
const demo = (): Demo => JSON.parse(readFileSync(DEMO_FILE, 'utf8'));

describe('bulk provisioning CLI and the demo data set', () => {
  let h: IdentityHarness;
  let dir: string;

  beforeAll(async () => {
    h = await IdentityHarness.start();
    dir = mkdtempSync(join(tmpdir(), 'provision-'));
  });

  afterAll(async () => {
    await h?.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  async function provision(
    file: string | Demo,
    ...flags: string[]
  ): Promise<{ code: number; out: string; err: string }> {
    let path = file as string;
    if (typeof file !== 'string') {
      path = join(dir, `file-${Math.random().toString(36).slice(2)}.json`);
      writeFileSync(path, JSON.stringify(file));
    }
    const out: string[] = [];
    const err: string[] = [];
    const code = await runProvisionCli(
      [path, ...flags],
      { DATABASE_URL: h.db.url },
      { log: (l) => out.push(l), error: (l) => err.push(l) },
    );
    return { code, out: out.join('\n'), err: err.join('\n') };
  }

  /** Every row of every identity table, in a fixed order. */
  async function dump(): Promise<Record<string, unknown[]>> {
    const out: Record<string, unknown[]> = {};
    for (const t of TABLES) out[t] = await h.ds.query(`SELECT * FROM "${t}" ORDER BY 1, 2`);
    return out;
  }

  async function token(form: Record<string, string>): Promise<string> {
    const res = await h
      .http()
      .post('/oauth/token')
      .type('form')
      .send({ grant_type: 'client_credentials', ...form })
      .expect(200);
    return res.body.access_token;
  }

  it('refuses a bad file naming every failing record, and writes nothing', async () => {
    const before = await dump();
    const bad = demo();
    (bad.apps[2].oauth2 as { redirect_uris: string[] }).redirect_uris[0] = 'not a url';
    (bad.vanity_domains[0].brand_configuration as Record<string, unknown>).primary_color = 'red';
    const res = await provision(bad);
    expect(res.code).toBe(1);
    expect(res.err).toContain('apps[2].oauth2.redirect_uris[0]: must be an http(s) URL');
    expect(res.err).toContain('vanity_domains[0].brand_configuration.primary_color: must be a hex colour #RRGGBB');
    expect(res.err).toContain('nothing was written');
    expect(await dump()).toEqual(before);
  });

  it('refuses broken references (checked against the file and the database), writing nothing', async () => {
    const before = await dump();
    const bad = demo();
    bad.tenant_users[0].constituencies = ['prefects'];
    bad.deployments[1].scope = [uri('roster.readonly'), 'https://evil.example/scope'];
    bad.deployments[2].app_id = '00000000-0000-4000-8000-000000000000';
    bad.constituencies[0].allowed_identity_providers = ['google', 'e5f6a7b8-c9d0-4e1f-8a3b-4c5d6e7f8a09']; // the SG tenant's provider
    bad.users.push({ ...bad.users[0] });
    (bad.identity_providers[0].oauth2 as Record<string, unknown>).client_secret = 'a-secret-in-a-file';
    const res = await provision(bad);
    expect(res.code).toBe(1);
    expect(res.err).toContain(`tenant_users[0].constituencies[0]: "prefects" is not a constituency of tenant ${AU}`);
    expect(res.err).toContain('deployments[1].scope[1]: "https://evil.example/scope" is not a known scope URI');
    expect(res.err).toContain(
      'deployments[2].app_id: no app 00000000-0000-4000-8000-000000000000 in the file or the database',
    );
    expect(res.err).toContain(
      'constituencies[0].allowed_identity_providers[1]: identity provider e5f6a7b8-c9d0-4e1f-8a3b-4c5d6e7f8a09 belongs to another tenant',
    );
    expect(res.err).toContain('users[5].email: repeated in the file (also users[0])');
    expect(res.err).toContain('identity_providers[0].oauth2.client_secret: not accepted in a provisioning file');
    expect(await dump()).toEqual(before);
  });

  it('refuses a file that is not JSON, unknown sections and bad usage', async () => {
    const path = join(dir, 'broken.json');
    writeFileSync(path, '{"tenants": [');
    expect((await provision(path)).code).toBe(1);
    const unknown = await provision({ ...demo(), schools: [] } as Demo);
    expect(unknown.code).toBe(1);
    expect(unknown.err).toContain('schools: unknown section');
    const out: string[] = [];
    expect(
      await runProvisionCli([], { DATABASE_URL: h.db.url }, { log: () => undefined, error: (l) => out.push(l) }),
    ).toBe(2);
    expect(out.join()).toContain('usage');
  });

  it('a dry run checks and counts but writes nothing', async () => {
    const before = await dump();
    const res = await provision(DEMO_FILE, '--dry-run');
    expect(res.code).toBe(0);
    expect(res.out).toContain('dry run');
    expect(res.out).toMatch(/tenants\s+2 created/);
    expect(await dump()).toEqual(before);
  });

  it('loads the demo file, and loading it again changes nothing', async () => {
    const first = await provision(DEMO_FILE);
    expect(first).toMatchObject({ code: 0, err: '' });
    expect(first.out).toMatch(/tenants\s+2 created, 0 updated, 0 unchanged/);
    expect(first.out).toMatch(/deployments\s+6 created/);
    const loaded = await dump();
    expect(loaded.tenants).toHaveLength(2);
    expect(loaded.vanity_domains).toHaveLength(1);

    const second = await provision(DEMO_FILE);
    expect(second.code).toBe(0);
    expect(second.out).not.toMatch(/[1-9]\d* (created|updated)/);
    expect(await dump()).toEqual(loaded);
  });

  it('stores the file\u2019s client secrets hashed; the demo credentials work at the token endpoint', async () => {
    const rows: { client_id: string; client_secret_hash: string }[] = await h.ds.query(
      'SELECT client_id, client_secret_hash FROM apps UNION ALL SELECT client_id, client_secret_hash FROM tenant_app_deployments WHERE client_id IS NOT NULL',
    );
    for (const r of rows) expect(r.client_secret_hash).toMatch(/^sha256\$/);
    expect(JSON.stringify(rows)).not.toContain('not-for-production');
    const perDeployment = await h
      .http()
      .post('/oauth/token')
      .type('form')
      .send({
        grant_type: 'client_credentials',
        client_id: 'demo-harbourview-oneroster',
        client_secret: 'demo-harbourview-oneroster-secret-not-for-production',
      })
      .expect(200);
    expect(perDeployment.body.scope).toBe(
      `${uri('roster-core.readonly')} ${uri('v1p2.roster-core.readonly')} ${uri('v1p2.roster.readonly')} ${uri('id.tenant-core.readonly')}`,
    );
    // A stock client asking for v1.2 scopes gets exactly the granted subset.
    const v1p2 = await h
      .http()
      .post('/oauth/token')
      .type('form')
      .send({
        grant_type: 'client_credentials',
        client_id: 'demo-harbourview-oneroster',
        client_secret: 'demo-harbourview-oneroster-secret-not-for-production',
        scope: `${uri('v1p2.roster.readonly')} ${uri('v1p2.gradebook.readonly')}`,
      })
      .expect(200);
    expect(v1p2.body.scope).toBe(uri('v1p2.roster.readonly'));
  });

  it('all eight reads answer the spec shapes for the demo data (SG enterprise tenant)', async () => {
    const t = await token({
      client_id: 'demo-lioncity-admin',
      client_secret: 'demo-lioncity-admin-secret-not-for-production',
      tenant_id: SG,
    });
    const reads: [string, object, number][] = [
      ['/apps', APP, 2],
      ['/identity-providers', IDENTITY_PROVIDER, 3],
      ['/tenants', TENANT, 1],
      [`/tenants/${SG}/apps`, DEPLOYMENT, 5],
      [`/tenants/${SG}/constituencies`, CONSTITUENCY, 3],
      [`/tenants/${SG}/users`, TENANT_USER, 3],
      ['/users', USER, 3],
      ['/vanity-domains', VANITY_DOMAIN, 1],
    ];
    for (const [path, schema, count] of reads) {
      const res = await h.http().get(path).set(bearer(t)).expect(200);
      expectArrayOf(schema, res.body);
      expect({ path, count: res.body.length }).toEqual({ path, count });
    }
    const apps = (await h.http().get('/apps').set(bearer(t)).expect(200)).body;
    expect(apps.map((a: { auth_type: string }) => a.auth_type).sort()).toEqual(['oauth2', 'saml']);
    const providers = (await h.http().get('/identity-providers').set(bearer(t)).expect(200)).body;
    expect(providers.map((p: { id: string }) => p.id)).toEqual([
      'google',
      'microsoft',
      'e5f6a7b8-c9d0-4e1f-8a3b-4c5d6e7f8a09',
    ]);
    const tenant = (await h.http().get(`/tenants/${SG}`).set(bearer(t)).expect(200)).body[0];
    expect(tenant).toMatchObject({ name: 'Lion City Schools District', region: { id: 'SG', country_code: 'SG' } });
  });

  it('the AU-NSW school sees only its own objects and has no vanity domains licence', async () => {
    const t = await token({
      client_id: 'demo-roster-sync',
      client_secret: 'demo-roster-sync-secret-not-for-production',
      tenant_id: AU,
    });
    const tenants = (await h.http().get('/tenants').set(bearer(t)).expect(200)).body;
    expect(tenants.map((x: { id: string }) => x.id)).toEqual([AU]);
    const users = (await h.http().get('/users').set(bearer(t)).expect(200)).body;
    expect(users.map((u: { email: string }) => u.email).sort()).toEqual([
      'jack.wilson@harbourview.edu.example',
      'olivia.nguyen@harbourview.edu.example',
      'sam.lee@relief-teachers.example',
    ]);
    const shared = users.find((u: { email: string }) => u.email === 'sam.lee@relief-teachers.example');
    expect(shared.idp_identifiers).toEqual([{ id: '11111111-2222-4333-8444-6666666666e1', idp_id: 'google' }]);
    expectError(await h.http().get(`/tenants/${SG}/users`).set(bearer(t)), 404, 'not_found');
    expectError(await h.http().get('/vanity-domains').set(bearer(t)), 403, 'licence_required');
  });

  it('a changed file updates only what changed; a changed secret replaces the old one', async () => {
    const changed = demo();
    changed.tenants[0].name = 'Harbour View Public School (renamed)';
    changed.apps[0].client_secret = 'demo-roster-sync-rotated-secret-not-for-production';
    const res = await provision(changed);
    expect(res.code).toBe(0);
    expect(res.out).toMatch(/tenants\s+0 created, 1 updated, 1 unchanged/);
    expect(res.out).toMatch(/apps\s+0 created, 1 updated, 4 unchanged/);
    expect(res.out).toMatch(/users\s+0 created, 0 updated, 5 unchanged/);
    const old = await h.http().post('/oauth/token').type('form').send({
      grant_type: 'client_credentials',
      client_id: 'demo-roster-sync',
      client_secret: 'demo-roster-sync-secret-not-for-production',
    });
    expect(old.status).toBe(401);
    await token({ client_id: 'demo-roster-sync', client_secret: 'demo-roster-sync-rotated-secret-not-for-production' });
    expect((await provision(DEMO_FILE)).code).toBe(0);
  });

  it('generates and prints a secret once when the file gives none; re-loading keeps it', async () => {
    const file = {
      apps: [
        {
          id: '7e57a990-0000-4000-8000-000000000001',
          name: 'No Secret Given',
          owner: { type: 'developer', id: '3c5e7a91-1d2f-4b6c-8e0a-4f9d2b7c6e03' },
          auth_type: 'oauth2',
          oauth2: { redirect_uris: ['https://x.example/cb'] },
        },
      ],
    } as unknown as Demo;
    const first = await provision(file);
    expect(first.code).toBe(0);
    const match = /generated client secret for apps\[0\]: client_id=(\S+) client_secret=(\S+)/.exec(first.out);
    expect(match).not.toBeNull();
    const again = await provision(file);
    expect(again.out).not.toContain('generated client secret');
    await token({ client_id: match![1], client_secret: match![2] });
  });
});
