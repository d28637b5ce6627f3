import { readFileSync } from 'node:fs';
import path from 'node:path';
import { createTestDatabase, type TestDatabase } from '@edu/testing';
import { demoSharingConfig, shareDemoData } from './demo-tools';
import { clientToken, jsonCall } from './http';
import { buildServices, provisionDemo, runDist, startService, type ServiceProcess } from './processes';

const root = path.resolve(__dirname, '..', '..');
const ISSUER = 'https://identity.e2e.example';

interface Example {
  title: string;
  client_id: string;
  client_secret: string;
  tenant_id?: string;
  call: string;
  then?: string;
}

/**
 * The data sharing of `npm start`'s demo: Lion City shares only its maths classes with Maths
 * Quest and withholds contact details, set through the Identity API as npm start does; the
 * banner's pair of calls then shows the difference (tools/start/demo-examples.json).
 */
describe('demo data sharing: what npm start sets up and its banner shows', () => {
  let db: TestDatabase;
  let identity: ServiceProcess;
  let oneroster: ServiceProcess;
  const config = demoSharingConfig();
  const examples = (
    JSON.parse(readFileSync(path.join(root, 'tools/start/demo-examples.json'), 'utf8')) as Example[]
  ).filter((e) => e.title.startsWith('data sharing'));

  beforeAll(async () => {
    buildServices();
    db = await createTestDatabase();
    provisionDemo(db.url);
    runDist(
      'apps/oneroster/src/imports/cli',
      ['--tenant', config.tenant_id, '--quiet', path.join(root, 'tools/demo/oneroster', config.tenant_id)],
      db.url,
    );
    identity = await startService('identity', { DATABASE_URL: db.url, TOKEN_ISSUER: ISSUER });
    oneroster = await startService('oneroster', {
      DATABASE_URL: db.url,
      TOKEN_ISSUER: ISSUER,
      JWKS_URL: `${identity.url}/.well-known/jwks.json`,
      PUBLIC_BASE_URL: 'http://localhost:3001',
    });
  });

  afterAll(async () => {
    await Promise.all([oneroster?.stop(), identity?.stop()]);
    await db?.drop();
  });

  /** Runs one banner example: its token, then each of its calls. */
  async function run(
    e: Example,
  ): Promise<Array<{ status: number; body: Record<string, Array<Record<string, string>>> }>> {
    const token = await clientToken(
      identity.url,
      { id: e.client_id, secret: e.client_secret },
      e.tenant_id ? { tenant_id: e.tenant_id } : {},
    );
    const out = [];
    for (const call of [e.call, e.then].filter((c): c is string => Boolean(c)))
      out.push(
        await jsonCall('GET', call.replace('{oneroster}', oneroster.url).replace('{identity}', identity.url), token),
      );
    return out;
  }

  it('activates the sharing through the Identity API once; a second start keeps it', async () => {
    expect(await shareDemoData({ identityUrl: identity.url })).toBe('activated');
    expect(await shareDemoData({ identityUrl: identity.url })).toBe('kept');
  });

  it('shows the difference with the banner’s pair of calls: every user with e-mail, then maths classes only, no e-mail', async () => {
    expect(examples).toHaveLength(2);
    const [everything] = await run(examples[0] as Example);
    expect(everything?.status).toBe(200);
    expect(everything?.body.users?.some((u) => typeof u.email === 'string')).toBe(true);
    const [users, classes] = await run(examples[1] as Example);
    expect(users?.status).toBe(200);
    expect(users?.body.users?.length).toBeGreaterThan(0);
    expect(users?.body.users?.every((u) => u.email === undefined)).toBe(true);
    expect(classes?.body.classes?.map((c) => c.sourcedId).sort()).toEqual([...config.sharing.classes].sort());
  });

  it('previews exactly what the app is served', async () => {
    const admin = await clientToken(
      identity.url,
      { id: config.admin.client_id, secret: config.admin.client_secret },
      { tenant_id: config.tenant_id },
    );
    const preview = await jsonCall<{ collections: Record<string, { count: number }> }>(
      'GET',
      `${identity.url}/tenants/${config.tenant_id}/apps/${config.app.id}/sharing/preview?state=active`,
      admin,
    );
    expect(preview.status).toBe(200);
    const maths = examples[1] as Example;
    const token = await clientToken(identity.url, { id: maths.client_id, secret: maths.client_secret });
    for (const [collection, path] of [
      ['users', 'users'],
      ['classes', 'classes'],
      ['students', 'students'],
      ['enrollments', 'enrollments'],
      ['orgs', 'orgs'],
    ]) {
      const res = await fetch(`${oneroster.url}/ims/oneroster/v1p1/${path}?limit=1`, {
        headers: { Authorization: `Bearer ${token}` },
      });
      expect({ collection, total: Number(res.headers.get('x-total-count')) }).toEqual({
        collection,
        total: preview.body.collections[collection as string]?.count,
      });
    }
  });
});
