import { randomBytes, randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Response } from 'supertest';
import { expectError } from '@edu/testing';
import { runProvisionCli } from '../src/provisioning/provision-command';
import { bearer, IdentityHarness } from './support/harness';
import { expectShape, TENANT_USER, USER } from './support/schemas';

/*
 * Two tenants share one person. Whatever one tenant reads or writes about that person, the other
 * tenant's view stays byte-for-byte the same, and no answer tells a tenant whether another tenant
 * knows an e-mail address.
 */

interface Side {
  name: string;
  id: string;
  token: string;
  /** One of the tenant's own identity providers. */
  idp: string;
}

type Method = 'get' | 'post' | 'patch' | 'delete';

const IDP = () => ({
  button_graphic: '<svg xmlns="http://www.w3.org/2000/svg" width="4" height="4"><rect width="4" height="4"/></svg>',
  provision_just_in_time: false,
  type: 'oauth2',
  oauth2: {
    client_id: 'c',
    authorization_url: 'https://idp.example/a',
    token_url: 'https://idp.example/t',
    scope: ['openid'],
    oidc_discovery: 'https://idp.example/.well-known/openid-configuration',
    jwks_url: 'https://idp.example/jwks',
  },
});

/** Two addresses of the same length, so that equal answers also have equal sizes. */
const addressPair = () => {
  const tag = randomBytes(3).toString('hex');
  return { known: `known-${tag}@people.example`, fresh: `fresh-${tag}@people.example` };
};

describe('users: tenants never read or change another tenant\u2019s record of a person', () => {
  let h: IdentityHarness;
  const sides: Record<'A' | 'B', Side> = {} as never;
  let dir: string;

  beforeAll(async () => {
    h = await IdentityHarness.start();
    const w = h.world();
    for (const name of ['A', 'B'] as const) {
      const tenant = await w.tenant({ name: `Tenant ${name}` });
      await w.constituency(tenant.id, 'staff', ['google', 'microsoft']);
      sides[name] = {
        name,
        id: tenant.id,
        token: await h.tenantToken(tenant.id, ['id.tenant-core.write']),
        idp: (await w.identityProvider(tenant.id)).id,
      };
    }
    dir = mkdtempSync(join(tmpdir(), 'user-isolation-'));
  });

  afterAll(async () => {
    await h?.stop();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  const call = (method: Method, path: string, token: string, body?: object) => {
    const req = h.http()[method](path).set(bearer(token));
    return body === undefined ? req : req.send(body);
  };

  /**
   * Everything `side` can read about users, as raw answers (status and body text), plus the
   * side's own stored records and the person rows of `emails`.
   */
  async function view(side: Side, emails: string[]): Promise<string[]> {
    const out: string[] = [];
    for (const path of [
      '/users',
      `/tenants/${side.id}/users`,
      ...emails.map((e) => `/users/${e}`),
      ...emails.map((e) => `/users/${e.toUpperCase()}`),
    ]) {
      const res = await call('get', path, side.token);
      out.push(`${path} ${res.status} ${res.text}`);
    }
    out.push(
      JSON.stringify(await h.ds.query('SELECT * FROM tenant_users WHERE tenant_id = $1 ORDER BY user_id', [side.id])),
    );
    out.push(JSON.stringify(await h.ds.query('SELECT * FROM users WHERE email = ANY($1) ORDER BY email', [emails])));
    return out;
  }

  async function provision(file: object): Promise<{ code: number; out: string; err: string }> {
    const path = join(dir, `file-${randomUUID()}.json`);
    writeFileSync(path, JSON.stringify(file));
    const out: string[] = [];
    const err: string[] = [];
    const code = await runProvisionCli(
      [path],
      { DATABASE_URL: h.db.url },
      { log: (l) => out.push(l), error: (l) => err.push(l) },
    );
    return { code, out: out.join('\n'), err: err.join('\n') };
  }

  describe.each([
    ['A', 'B'],
    ['B', 'A'],
  ] as const)('tenant %s writing, tenant %s watching', (writerName, watcherName) => {
    let writer: Side;
    let watcher: Side;
    let email: string;
    let personId: string;
    let watcherGoogleId: string;

    beforeAll(async () => {
      writer = sides[writerName];
      watcher = sides[watcherName];
      email = `shared-${randomBytes(4).toString('hex')}@people.example`;
      watcherGoogleId = randomUUID();
      const person = await h.world().user([watcher.id], {
        email,
        constituencies: ['staff'],
        idpIdentifiers: [
          { id: watcherGoogleId, idp_id: 'google' },
          { id: randomUUID(), idp_id: watcher.idp },
        ],
      });
      personId = person.id;
    });

    /** Runs `write` and proves the watcher's view did not change by a byte. */
    async function unseenBy(write: () => Promise<unknown>): Promise<void> {
      const before = await view(watcher, [email]);
      await write();
      expect(await view(watcher, [email])).toEqual(before);
    }

    it('POST /users answers the writer\u2019s own profile and identifiers (same person id), nothing the other tenant stored', async () => {
      const body = {
        email: email.toUpperCase(),
        name: 'Writer Name',
        nickname: 'W',
        picture: 'https://writer.example/p.png',
        idp_identifiers: [{ id: watcherGoogleId, idp_id: 'google' }, { idp_id: writer.idp }],
      };
      await unseenBy(async () => {
        const res = await call('post', '/users', writer.token, body).expect(201);
        expectShape(USER, res.body);
        expect(res.body).toEqual({
          id: personId,
          email,
          name: 'Writer Name',
          nickname: 'W',
          picture: 'https://writer.example/p.png',
          idp_identifiers: [
            { id: watcherGoogleId, idp_id: 'google' },
            { id: expect.any(String), idp_id: writer.idp },
          ],
        });
      });
      const mine = (await call('get', `/tenants/${writer.id}/users`, writer.token).expect(200)).body.find(
        (l: { user_email: string }) => l.user_email === email,
      );
      expect(mine).toEqual({
        user_email: email,
        tenant_id: writer.id,
        constituencies: [],
        user: { id: personId, email, name: 'Writer Name', nickname: 'W', picture: 'https://writer.example/p.png' },
      });
    });

    it('a second POST /users for the same person is 409 at the writer, and changes nothing anywhere', async () => {
      const before = await view(writer, [email]);
      await unseenBy(async () => {
        expectError(
          await call('post', '/users', writer.token, { email, name: 'Again', picture: 'https://writer.example/q.png' }),
          409,
          'conflict',
        );
      });
      expect(await view(writer, [email])).toEqual(before);
    });

    it('PATCH /users/:email changes only the writer\u2019s profile and identifiers', async () => {
      await unseenBy(async () => {
        const res = await call('patch', `/users/${email}`, writer.token, {
          name: 'Renamed',
          nickname: 'R',
          picture: 'https://writer.example/r.png',
          idp_identifiers: [{ idp_id: 'microsoft' }],
        }).expect(200);
        expect(res.body).toMatchObject({
          id: personId,
          name: 'Renamed',
          nickname: 'R',
          picture: 'https://writer.example/r.png',
          idp_identifiers: [{ idp_id: 'microsoft' }],
        });
      });
    });

    it('PATCH /users/:email refuses identifiers at the other tenant\u2019s provider', async () => {
      await unseenBy(async () => {
        const res = await call('patch', `/users/${email}`, writer.token, {
          idp_identifiers: [{ idp_id: watcher.idp }],
        });
        expectError(res, 400, 'validation_failed');
        expect(res.body.fields.map((f: { field: string }) => f.field)).toEqual(['idp_identifiers']);
      });
    });

    it('PATCH /tenants/:id/users/:email changes only the writer\u2019s constituencies', async () => {
      await unseenBy(async () => {
        const res = await call('patch', `/tenants/${writer.id}/users/${email}`, writer.token, {
          constituencies: ['staff'],
        }).expect(200);
        expect(res.body).toMatchObject({
          user_email: email,
          tenant_id: writer.id,
          constituencies: ['staff'],
          user: { id: personId, name: 'Renamed' },
        });
      });
    });

    it('deleting the writer\u2019s identity provider removes only the writer\u2019s identifiers at it', async () => {
      const idp = (await call('post', '/identity-providers', writer.token, IDP()).expect(201)).body.id;
      await call('patch', `/users/${email}`, writer.token, {
        idp_identifiers: [{ idp_id: 'google' }, { idp_id: idp }],
      }).expect(200);
      await unseenBy(async () => {
        await call('delete', `/identity-providers/${idp}`, writer.token).expect(204);
      });
      const mine = (await call('get', `/users/${email}`, writer.token).expect(200)).body[0];
      expect(mine.idp_identifiers.map((i: { idp_id: string }) => i.idp_id)).toEqual(['google']);
    });

    it('DELETE /users/:email removes the writer\u2019s record only; the person keeps their id', async () => {
      await unseenBy(async () => {
        await call('delete', `/users/${email}`, writer.token).expect(204);
        expectError(await call('get', `/users/${email}`, writer.token), 404, 'not_found');
      });
    });

    it('POST /tenants/:id/users adds the person with the writer\u2019s profile only', async () => {
      await unseenBy(async () => {
        const res = await call('post', `/tenants/${writer.id}/users`, writer.token, {
          user_email: email,
          constituencies: ['staff'],
          user: { name: 'Linked', picture: 'https://writer.example/l.png' },
        }).expect(201);
        expectShape(TENANT_USER, res.body);
        expect(res.body).toEqual({
          user_email: email,
          tenant_id: writer.id,
          constituencies: ['staff'],
          user: { id: personId, email, name: 'Linked', nickname: 'Linked', picture: 'https://writer.example/l.png' },
        });
        const user = (await call('get', `/users/${email}`, writer.token).expect(200)).body;
        expect(user).toEqual([
          {
            id: personId,
            email,
            name: 'Linked',
            nickname: 'Linked',
            picture: 'https://writer.example/l.png',
            idp_identifiers: [],
          },
        ]);
      });
    });

    it('DELETE /tenants/:id/users/:email removes the writer\u2019s record only', async () => {
      await unseenBy(async () => {
        await call('delete', `/tenants/${writer.id}/users/${email}`, writer.token).expect(204);
        expectError(await call('delete', `/tenants/${writer.id}/users/${email}`, writer.token), 404, 'not_found');
      });
    });

    it('the provisioning file sets the profile only at the tenants it names', async () => {
      const file = {
        users: [
          {
            email,
            name: 'From The File',
            picture: 'https://operator.example/f.png',
            idp_identifiers: [{ idp_id: 'google' }, { idp_id: writer.idp }],
          },
        ],
        tenant_users: [{ tenant_id: writer.id, user_email: email, constituencies: [] }],
      };
      await unseenBy(async () => {
        const res = await provision(file);
        expect(res).toMatchObject({ code: 0, err: '' });
      });
      const user = (await call('get', `/users/${email}`, writer.token).expect(200)).body[0];
      expect(user).toMatchObject({
        id: personId,
        name: 'From The File',
        nickname: 'From The File',
        picture: 'https://operator.example/f.png',
      });
      expect(user.idp_identifiers.map((i: { idp_id: string }) => i.idp_id)).toEqual(['google', writer.idp]);
      await unseenBy(async () => {
        const again = await provision(file);
        expect(again.out).toMatch(/tenant_users\s+0 created, 0 updated, 1 unchanged/);
      });
    });

    it('the watcher\u2019s record is the one it started with', async () => {
      const mine = (await call('get', `/users/${email}`, watcher.token).expect(200)).body[0];
      expect(mine).toMatchObject({
        id: personId,
        email,
        idp_identifiers: [
          { id: watcherGoogleId, idp_id: 'google' },
          { id: expect.any(String), idp_id: watcher.idp },
        ],
      });
      expect(mine.name).toMatch(/^User /);
    });
  });

  describe('no answer tells "known to another tenant" from "new"', () => {
    const VOLATILE_HEADERS = new Set(['date', 'etag', 'x-request-id']);

    /** An answer with the address and the person id masked: what must be equal for both cases. */
    function masked(res: Response, email: string, id?: string) {
      const mask = (text: string) => {
        let t = text.split(email).join('<email>');
        if (id) t = t.split(id).join('<id>');
        return t;
      };
      const headers = Object.fromEntries(Object.entries(res.headers).filter(([k]) => !VOLATILE_HEADERS.has(k)));
      return { status: res.status, headers, body: mask(res.text) };
    }

    /** Makes the same request for both addresses and expects answers equal but for address and id. */
    async function same(
      method: Method,
      path: (email: string) => string,
      body: ((email: string) => object) | undefined,
      pair: { known: string; fresh: string },
      ids: { known?: string; fresh?: string } = {},
    ) {
      const B = sides.B;
      const known = await call(method, path(pair.known), B.token, body?.(pair.known));
      const fresh = await call(method, path(pair.fresh), B.token, body?.(pair.fresh));
      const knownId = ids.known ?? (known.body as { id?: string })?.id;
      const freshId = ids.fresh ?? (fresh.body as { id?: string })?.id;
      expect(masked(known, pair.known, knownId)).toEqual(masked(fresh, pair.fresh, freshId));
      return { known, fresh };
    }

    it('before, while and after tenant B has the person, every answer to B is the same for both', async () => {
      const pair = addressPair();
      const atA = await h
        .world()
        .user([sides.A.id], { email: pair.known, idpIdentifiers: [{ id: randomUUID(), idp_id: 'google' }] });
      const B = sides.B;
      const profile = { name: 'Pat Doe', picture: 'https://b.example/pat.png' };
      const googleId = randomUUID(); // given, so that both answers carry the same identifier id
      const userBody = (email: string) => ({
        email,
        ...profile,
        idp_identifiers: [{ id: googleId, idp_id: 'google' }],
      });

      // B does not have either person yet.
      for (const [method, path, body] of [
        ['get', (e: string) => `/users/${e}`, undefined],
        ['patch', (e: string) => `/users/${e}`, () => ({ name: 'x' })],
        ['delete', (e: string) => `/users/${e}`, undefined],
        ['patch', (e: string) => `/tenants/${B.id}/users/${e}`, () => ({ constituencies: [] })],
        ['delete', (e: string) => `/tenants/${B.id}/users/${e}`, undefined],
        ['post', () => `/tenants/${B.id}/users`, (e: string) => ({ user_email: e, constituencies: [] })],
        [
          'post',
          () => `/tenants/${B.id}/users`,
          (e: string) => ({ user_email: e, constituencies: ['ghosts'], user: profile }),
        ],
        ['post', () => '/users', (e: string) => ({ ...userBody(e), idp_identifiers: [{ idp_id: sides.A.idp }] })],
      ] as [Method, (e: string) => string, ((e: string) => object) | undefined][]) {
        const { known } = await same(method, path, body, pair);
        expect(known.status).toBeGreaterThanOrEqual(400);
      }

      // B adds both: the same answer, B's own data, and the known person's existing id.
      const created = await same('post', () => '/users', userBody, pair);
      expect(created.known.status).toBe(201);
      expect(created.known.body).toEqual({
        id: atA.id,
        email: pair.known,
        ...profile,
        nickname: profile.name,
        idp_identifiers: [{ id: googleId, idp_id: 'google' }],
      });
      const ids = { known: created.known.body.id as string, fresh: created.fresh.body.id as string };
      expect(ids.fresh).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);

      // Re-adding is 409 for both; reads and the tenant-user record answer alike.
      expect((await same('post', () => '/users', userBody, pair, ids)).known.status).toBe(409);
      expect((await same('get', (e) => `/users/${e}`, undefined, pair, ids)).known.status).toBe(200);
      const records = (await call('get', `/tenants/${B.id}/users`, B.token).expect(200)).body as {
        user_email: string;
        user: { id: string };
      }[];
      const record = (e: string) =>
        JSON.stringify(records.find((r) => r.user_email === e))
          .split(e)
          .join('<email>');
      expect(record(pair.known).split(ids.known).join('<id>')).toEqual(
        record(pair.fresh).split(ids.fresh).join('<id>'),
      );

      // Removing and adding again answers the same id for both: ids do not reveal that someone else kept the person.
      expect((await same('delete', (e) => `/users/${e}`, undefined, pair, ids)).known.status).toBe(204);
      const again = await same(
        'post',
        () => `/tenants/${B.id}/users`,
        (e) => ({ user_email: e, constituencies: [], user: profile }),
        pair,
        ids,
      );
      expect(again.known.status).toBe(201);
      expect({ known: again.known.body.user.id, fresh: again.fresh.body.user.id }).toEqual(ids);
      expect((await same('delete', (e) => `/tenants/${B.id}/users/${e}`, undefined, pair, ids)).known.status).toBe(204);
      const third = await same('post', () => '/users', userBody, pair, ids);
      expect({ known: third.known.body.id, fresh: third.fresh.body.id }).toEqual(ids);

      // The fresh person left with B's last record; the known one stays, unchanged, at A.
      await call('delete', `/users/${pair.fresh}`, B.token).expect(204);
      expect(await h.ds.query('SELECT count(*)::int AS n FROM users WHERE email = $1', [pair.fresh])).toEqual([
        { n: 0 },
      ]);
      expect((await call('get', `/users/${pair.known}`, sides.A.token).expect(200)).body[0]).toMatchObject({
        id: atA.id,
        name: atA.name,
        nickname: atA.nickname,
        picture: atA.picture,
      });
    });

    it('concurrent adds of one person by both tenants give both the same id and their own profiles', async () => {
      const email = `race-${randomBytes(4).toString('hex')}@people.example`;
      const [a, b] = await Promise.all(
        (['A', 'B'] as const).map((s) =>
          call('post', '/users', sides[s].token, {
            email,
            name: `Name at ${s}`,
            picture: `https://${s.toLowerCase()}.example/p.png`,
          }),
        ),
      );
      expect([a.status, b.status]).toEqual([201, 201]);
      expect(a.body.id).toBe(b.body.id);
      expect([a.body.name, b.body.name]).toEqual(['Name at A', 'Name at B']);
    });
  });

  describe('the provisioning file keeps profiles per tenant', () => {
    it('refuses a user no tenant_users record adds, a new record without a users record, and identifiers at a tenant the file does not add the user to', async () => {
      const email = `file-${randomBytes(4).toString('hex')}@people.example`;
      const other = `other-${randomBytes(4).toString('hex')}@people.example`;
      const before = await h.snapshot();
      const res = await provision({
        users: [
          { email, name: 'F', picture: 'https://f.example/p.png', idp_identifiers: [{ idp_id: sides.B.idp }] },
          { email: other, name: 'O', picture: 'https://f.example/o.png' },
        ],
        tenant_users: [
          { tenant_id: sides.A.id, user_email: email, constituencies: [] },
          { tenant_id: sides.A.id, user_email: 'nobody@people.example', constituencies: [] },
        ],
      });
      expect(res.code).toBe(1);
      expect(res.err).toContain(
        `users[0].idp_identifiers[0].idp_id: identity provider ${sides.B.idp} belongs to a tenant the file does not add this user to`,
      );
      expect(res.err).toContain('users[1].email: no tenant_users record in the file adds this user to a tenant');
      expect(res.err).toContain('tenant_users[1].user_email: no users record for nobody@people.example in the file');
      expect(await h.snapshot()).toEqual(before);
    });

    it('a record the file names without a users record keeps its profile and gets the constituencies', async () => {
      const person = await h.world().user([sides.A.id]);
      const before = (await call('get', `/tenants/${sides.A.id}/users`, sides.A.token).expect(200)).body.find(
        (l: { user_email: string }) => l.user_email === person.email,
      );
      const res = await provision({
        tenant_users: [{ tenant_id: sides.A.id, user_email: person.email, constituencies: ['staff'] }],
      });
      expect(res).toMatchObject({ code: 0, err: '' });
      const after = (await call('get', `/tenants/${sides.A.id}/users`, sides.A.token).expect(200)).body.find(
        (l: { user_email: string }) => l.user_email === person.email,
      );
      expect(after).toEqual({ ...before, constituencies: ['staff'] });
    });
  });
});
