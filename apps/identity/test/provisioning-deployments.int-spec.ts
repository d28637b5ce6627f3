import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runProvisionCli } from '../src/provisioning/provision-command';
import { bearer, IdentityHarness, uri } from './support/harness';
import { DEPLOYMENT, expectArrayOf } from './support/schemas';

const TENANT = '5d0c1e2f-3a4b-4c5d-8e6f-7a8b9c0d1e01';
const DEVELOPER = '5d0c1e2f-3a4b-4c5d-8e6f-7a8b9c0d1e02';
const APP = '5d0c1e2f-3a4b-4c5d-8e6f-7a8b9c0d1e03';

type File = Record<string, Record<string, unknown>[]>;

/** A school, a partner and its app deployed there with per-deployment credentials and `settings`. */
function file(settings?: Record<string, unknown>, scope = [uri('roster-core.readonly')]): File {
  return {
    developers: [{ id: DEVELOPER, name: 'Sync Partner', email: 'ops@sync-partner.example' }],
    tenants: [
      {
        id: TENANT,
        name: 'Northside High',
        customer_id: 930001,
        govt_id: 'NSW-3001',
        region: 'AU-NSW',
        licences: ['data-operations'],
      },
    ],
    apps: [
      {
        id: APP,
        name: 'Roster Sync',
        owner: { type: 'developer', id: DEVELOPER },
        auth_type: 'oauth2',
        oauth2: { redirect_uris: ['https://sync.example/cb'] },
        client_id: 'northside-sync-app',
        client_secret: 'northside-sync-app-secret-for-tests',
      },
    ],
    deployments: [
      {
        tenant_id: TENANT,
        app_id: APP,
        scope,
        client_id: 'northside-oneroster',
        client_secret: 'northside-oneroster-secret-for-tests',
        ...(settings ? { settings } : {}),
      },
    ],
  };
}

describe('provisioning file: deployment settings, scopes and developers', () => {
  let h: IdentityHarness;
  let dir: string;

  beforeAll(async () => {
    h = await IdentityHarness.start();
    dir = mkdtempSync(join(tmpdir(), 'provision-settings-'));
  });

  afterAll(async () => {
    await h?.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  async function provision(content: File): Promise<{ code: number; out: string; err: string }> {
    const path = join(dir, `file-${Math.random().toString(36).slice(2)}.json`);
    writeFileSync(path, JSON.stringify(content));
    const out: string[] = [];
    const err: string[] = [];
    const code = await runProvisionCli(
      [path],
      { DATABASE_URL: h.db.url },
      { log: (l) => out.push(l), error: (l) => err.push(l) },
    );
    return { code, out: out.join('\n'), err: err.join('\n') };
  }

  const storedSettings = async () =>
    (
      await h.ds.query('SELECT settings FROM tenant_app_deployments WHERE tenant_id = $1 AND app_id = $2', [
        TENANT,
        APP,
      ])
    )[0]?.settings;

  /** The deployment as the operator reads it over the API. */
  async function readBack(): Promise<Record<string, unknown>> {
    const op = await h.operatorToken();
    const res = await h.http().get(`/tenants/${TENANT}/apps/${APP}`).set(bearer(op)).expect(200);
    expectArrayOf(DEPLOYMENT, res.body);
    return res.body[0];
  }

  it('refuses bad settings naming the record and key, and writes nothing', async () => {
    const bad = file({ oneroster_date_format: 'ISO', extra: true });
    const res = await provision(bad);
    expect(res.code).toBe(1);
    expect(res.err).toContain('deployments[0].settings.oneroster_date_format: must be one of: compact, iso8601');
    expect(res.err).toContain('deployments[0].settings.extra: property extra should not exist');
    const asList = await provision(file(['iso8601'] as unknown as Record<string, unknown>));
    expect(asList.code).toBe(1);
    expect(asList.err).toContain('deployments[0].settings');
    expect(await h.ds.query('SELECT id FROM tenants WHERE id = $1', [TENANT])).toEqual([]);
  });

  it('refuses scopes a deployment never holds (developer and operator scopes), like the operator API', async () => {
    const res = await provision(
      file(undefined, [uri('roster-core.readonly'), uri('id.apps.write'), uri('platform.admin')]),
    );
    expect(res.code).toBe(1);
    expect(res.err).toContain(
      `deployments[0].scope[1]: "${uri('id.apps.write')}" is not a scope a deployment can hold`,
    );
    expect(res.err).toContain(`deployments[0].scope[2]: "${uri('platform.admin')}" is never granted to a deployment`);
  });

  it('refuses a developer record with the API\u2019s rules', async () => {
    const bad = file();
    bad.developers[0].email = 'not-an-email';
    const res = await provision(bad);
    expect(res.code).toBe(1);
    expect(res.err).toMatch(/developers\[0\]\.email: .*email/);
  });

  it('sets the settings named, keeps them when the file names none, and re-loading changes nothing', async () => {
    expect((await provision(file({ oneroster_date_format: 'iso8601' }))).code).toBe(0);
    expect(await storedSettings()).toEqual({ onerosterDateFormat: 'iso8601' });
    expect((await readBack()).settings).toEqual({
      oneroster_date_format: 'iso8601',
      oneroster_booleans: 'string',
      oneroster_profile: 'strict',
    });

    const again = await provision(file({ oneroster_date_format: 'iso8601' }));
    expect(again.out).toMatch(/deployments\s+0 created, 0 updated, 1 unchanged/);

    const more = await provision(file({ oneroster_booleans: 'json' }));
    expect(more.out).toMatch(/deployments\s+0 created, 1 updated, 0 unchanged/);
    expect(await storedSettings()).toEqual({ onerosterDateFormat: 'iso8601', onerosterBooleans: 'json' });

    const none = await provision(file());
    expect(none.out).toMatch(/deployments\s+0 created, 0 updated, 1 unchanged/);
    expect((await readBack()).settings).toEqual({
      oneroster_date_format: 'iso8601',
      oneroster_booleans: 'json',
      oneroster_profile: 'strict',
    });

    const profile = await provision(file({ oneroster_profile: 'compatibility' }));
    expect(profile.out).toMatch(/deployments\s+0 created, 1 updated, 0 unchanged/);
    expect(await storedSettings()).toEqual({
      onerosterDateFormat: 'iso8601',
      onerosterBooleans: 'json',
      onerosterProfile: 'compatibility',
    });
    expect((await provision(file({ oneroster_profile: 'lenient' }))).err).toContain(
      'deployments[0].settings.oneroster_profile: must be one of: strict, compatibility',
    );
    expect((await provision(file({ oneroster_profile: 'strict' }))).code).toBe(0);
  });

  it('settings the operator set over the API survive a re-load of a file that names none', async () => {
    const op = await h.operatorToken();
    await h
      .http()
      .patch(`/tenants/${TENANT}/apps/${APP}`)
      .set(bearer(op))
      .send({ settings: { oneroster_date_format: 'compact' } })
      .expect(200);
    expect((await provision(file())).code).toBe(0);
    expect((await readBack()).settings).toEqual({
      oneroster_date_format: 'compact',
      oneroster_booleans: 'json',
      oneroster_profile: 'strict',
    });
  });
});
