import type { TenantEntity } from '@edu/persistence';
import {
  concretePath,
  expectError,
  jsonAtShapeLimits,
  jsonShapeAttacks,
  writeRoutes,
  type RouteEntry,
} from '@edu/testing';
import { bearer, IdentityHarness } from './support/harness';

/**
 * Every write route of the identity service against bodies nested too deep or too wide: 400
 * naming the limit, never a 500, nothing written. Routes come from the app itself, so a route
 * added later is swept too.
 */
describe('identity: deeply nested and very wide JSON bodies', () => {
  let h: IdentityHarness;
  let tenant: TenantEntity;
  const tokens: Record<'tenant' | 'developer' | 'operator', string> = { tenant: '', developer: '', operator: '' };

  beforeAll(async () => {
    h = await IdentityHarness.start();
    tenant = await h.world().tenant({ name: 'Junk' });
    tokens.tenant = await h.tenantToken(tenant.id, ['id.tenant-core.write']);
    tokens.developer = await h.developerToken((await h.world().developer('Junk Dev')).id, ['id.apps.write']);
    tokens.operator = await h.operatorToken();
  });

  afterAll(async () => {
    await h?.stop();
  });

  /** A token the route accepts, so the body reaches the validation pipe (where it used to fail). */
  const authFor = (r: RouteEntry): Record<string, string> => {
    if (r.access === 'public') return {};
    const accepted = r.access.split(' ');
    if (accepted.includes('id.tenant-core.write')) return bearer(tokens.tenant);
    if (accepted.includes('id.apps.write')) return bearer(tokens.developer);
    return bearer(tokens.operator);
  };

  const send = (r: RouteEntry, body: string) => {
    const method = r.method.toLowerCase() as 'post' | 'put' | 'patch' | 'delete';
    return h.http()[method](concretePath(r.path)).set(authFor(r)).set('Content-Type', 'application/json').send(body);
  };

  it('has the write routes the sweep is about', () => {
    const routes = writeRoutes(h.app).map((r) => `${r.method} ${r.path}`);
    expect(routes).toEqual(expect.arrayContaining(['POST /users', 'POST /apps', 'POST /tenants', 'POST /oauth/token']));
  });

  it.each(jsonShapeAttacks().map((a) => [a.name, a] as const))(
    'refuses %s on every write route with 400 naming the limit',
    async (_name, attack) => {
      const before = await h.snapshot();
      const wrong: string[] = [];
      for (const route of writeRoutes(h.app)) {
        const res = await send(route, attack.body);
        if (res.status !== 400 || res.body.error !== 'invalid_request' || !attack.names.test(res.body.message)) {
          wrong.push(`${route.method} ${route.path}: ${res.status} ${JSON.stringify(res.body).slice(0, 200)}`);
          continue;
        }
        expectError(res, 400, 'invalid_request');
      }
      expect(wrong).toEqual([]);
      expect(await h.snapshot()).toEqual(before);
    },
  );

  it('lets bodies at the limits through to validation (which judges them, never with a 500)', async () => {
    const before = await h.snapshot();
    for (const route of writeRoutes(h.app).filter((r) => r.method !== 'DELETE')) {
      for (const { name, body } of jsonAtShapeLimits()) {
        const res = await send(route, body);
        expect({
          route: `${route.method} ${route.path}`,
          name,
          status: res.status < 500,
          limit: /nested deeper|members/.test(res.body?.message ?? ''),
        }).toEqual({
          route: `${route.method} ${route.path}`,
          name,
          status: true,
          limit: false,
        });
      }
    }
    expect(await h.snapshot()).toEqual(before);
  });

  it('applies the limits before authentication too (no token)', async () => {
    const deep = jsonShapeAttacks()[0];
    const anon = await h.http().post('/users').set('Content-Type', 'application/json').send(deep.body);
    expectError(anon, 400, 'invalid_request');
    expect(anon.body.message).toMatch(deep.names);
  });

  it('reads UTF-16 bodies as text, not bytes', async () => {
    const utf16 = (text: string) => Buffer.from(text, 'utf16le');
    const send16 = (body: Buffer) =>
      h
        .http()
        .post('/users')
        .set(bearer(tokens.tenant))
        .set('Content-Type', 'application/json; charset=utf-16le')
        .serialize((raw: Buffer) => raw as unknown as string) // the bytes as they are, not JSON of a Buffer
        .send(body);
    // U+5B22 is the bytes 22 5B in UTF-16LE: read as UTF-8 they would end the string and open 40 arrays.
    const legit = await send16(utf16(`{"name":"${'\u5b22'.repeat(40)}"}`));
    expectError(legit, 400, 'validation_failed');
    const deep = await send16(utf16(`${'['.repeat(40)}${']'.repeat(40)}`));
    expectError(deep, 400, 'invalid_request');
    expect(deep.body.message).toMatch(/nested deeper than 32 levels/);
  });
});
