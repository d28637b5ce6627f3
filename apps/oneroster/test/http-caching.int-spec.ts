import type { NestExpressApplication } from '@nestjs/platform-express';
import { Client } from 'pg';
import request from 'supertest';
import { PREFIX, RosterHarness, SCOPE, type TenantSetup } from './support/harness';
import { clonePackage, schoolPackage, setMode, writeFolder, type CsvPackage } from './support/csv-package';
import { importFolder } from './support/load';
import { SCOPE_V1P2, V1P2 } from './support/v1p2';
import { lineItemBody, ref, resultBody, startV1p2World, type V1p2World } from './support/v1p2-gradebook';
import { ResponseCache } from '../src/caching/response-cache';

const STRONG_TAG = /^"[A-Za-z0-9_-]{43}"$/;

/**
 * HTTP caching of the reads: strong ETags keyed by the data versions and the caller's
 * visibility, 304 on If-None-Match, the per-replica response cache, and every change of data or
 * visibility seen at once by a second instance of the service on the same database.
 */
describe('OneRoster HTTP caching', () => {
  const h = new RosterHarness();
  let w: V1p2World;
  /** A second instance on the same database: writes go through one, reads through the other. */
  let other: NestExpressApplication;
  /** A tenant whose rostering data changes by import (no gradebook). */
  let I: TenantSetup;
  let reader: string;

  const get = (app: NestExpressApplication, path: string, token: string, ifNoneMatch?: string) => {
    const r = request(app.getHttpServer()).get(path).set('Authorization', `Bearer ${token}`);
    return ifNoneMatch === undefined ? r : r.set('If-None-Match', ifNoneMatch);
  };
  const importPackage = async (p: CsvPackage) => {
    const report = await importFolder(h, I.tenantId, writeFolder(p));
    expect(report.errors).toEqual([]);
    expect(report.status).toBe('succeeded');
  };
  /** Reads `path` through both instances, then asserts `change` makes both answer anew, with the new data. */
  const expectChangeSeen = async (
    path: string,
    token: string,
    change: () => Promise<unknown>,
    seen: (body: Record<string, unknown>) => void,
  ) => {
    const before = await get(other, path, token).expect(200);
    await get(h.app, path, token).expect(200);
    await get(other, path, token, before.headers.etag).expect(304);
    await change();
    for (const app of [other, h.app]) {
      const after = await get(app, path, token, before.headers.etag).expect(200);
      expect(after.headers.etag).toMatch(STRONG_TAG);
      expect(after.headers.etag).not.toBe(before.headers.etag);
      seen(after.body as Record<string, unknown>);
      await get(app, path, token, after.headers.etag).expect(304);
    }
  };

  beforeAll(async () => {
    w = await startV1p2World(h);
    other = await h.boot();
    I = await h.tenant();
    await importPackage(schoolPackage());
    reader = await h.token(I, [SCOPE.roster]);
  }, 120_000);

  afterAll(async () => {
    await other?.close();
    await h.stop();
  });

  describe('validators', () => {
    it('answers a strong ETag, private no-cache and Vary: Authorization, the same from every instance and every spelling of the query', async () => {
      const a = await get(h.app, `${PREFIX}/users?limit=2&offset=1`, reader).expect(200);
      expect(a.headers.etag).toMatch(STRONG_TAG);
      expect(a.headers['cache-control']).toBe('private, no-cache');
      expect(a.headers.vary).toBe('Authorization');
      const b = await get(other, `${PREFIX}/users?offset=1&limit=2`, await h.token(I, [SCOPE.roster])).expect(200);
      expect(b.headers.etag).toBe(a.headers.etag);
      expect(b.text).toBe(a.text);
      const page = await get(h.app, `${PREFIX}/users?limit=2&offset=2`, reader).expect(200);
      expect(page.headers.etag).not.toBe(a.headers.etag);
    });

    it('answers 304 without a body to If-None-Match holding the tag (exact, weak, in a list, or *), 200 otherwise', async () => {
      const path = `${PREFIX}/users/usr-s1`;
      const { headers } = await get(h.app, path, reader).expect(200);
      for (const condition of [headers.etag, `W/${headers.etag}`, `"nope", ${headers.etag}`, '*']) {
        const res = await get(h.app, path, reader, condition).expect(304);
        expect(res.text).toBeFalsy();
        expect(res.headers.etag).toBe(headers.etag);
        expect(res.headers['cache-control']).toBe('private, no-cache');
      }
      const res = await get(h.app, path, reader, '"nope"').expect(200);
      expect(res.body.user.sourcedId).toBe('usr-s1');
    });

    it('never answers an error from a tag or the cache: unknown ids stay 404, missing tokens 401, wrong scopes 403', async () => {
      const noValidators = (res: request.Response) => {
        expect(res.headers.etag ?? '').not.toMatch(STRONG_TAG);
        expect(res.headers['cache-control'] ?? '').not.toMatch(/private/);
      };
      for (let i = 0; i < 2; i++) noValidators(await get(h.app, `${PREFIX}/users/usr-none`, reader, '*').expect(404));
      const { headers } = await get(h.app, `${PREFIX}/users/usr-s1`, reader).expect(200);
      noValidators(
        await request(h.app.getHttpServer())
          .get(`${PREFIX}/users/usr-s1`)
          .set('If-None-Match', headers.etag)
          .expect(401),
      );
      noValidators(
        await get(h.app, `${PREFIX}/users/usr-s1`, await h.token(I, [SCOPE.gradebook]), headers.etag).expect(403),
      );
    });

    it('gives answers carrying warnings (statusInfoSet, which names the request) no tag', async () => {
      const res = await get(h.app, `${PREFIX}/users?fields=sourcedId,nonsense`, reader).expect(200);
      expect(res.body.statusInfoSet).toBeDefined();
      expect(res.headers.etag).toBeUndefined();
    });
  });

  describe('never shared across visibilities', () => {
    it('gives other scopes and tenants their own tags', async () => {
      const path = `${PREFIX}/orgs`;
      const tagOf = async (token: string) => (await get(h.app, path, token).expect(200)).headers.etag as string;
      const J = await h.tenant();
      await importFolder(h, J.tenantId, writeFolder(schoolPackage()));
      const tags = [
        await tagOf(reader),
        await tagOf(await h.token(I, [SCOPE.core])),
        await tagOf(await h.token(I, [SCOPE.core, SCOPE.roster])),
        await tagOf(await h.token(J, [SCOPE.roster])),
      ];
      expect(new Set(tags).size).toBe(tags.length);
      // A tag of one visibility revalidates nothing of another.
      await get(h.app, path, await h.token(I, [SCOPE.core]), tags[0]).expect(200);
      await get(h.app, path, await h.token(J, [SCOPE.roster]), tags[0]).expect(200);
    });

    it("serves another partner's deployment that sees the same rows the same way the same tag and the cached page", async () => {
      const path = `${PREFIX}/users?limit=2`;
      const first = await get(h.app, path, reader).expect(200);
      const partner = await h.token(await h.otherApp(I), [SCOPE.roster]);
      const locker = new Client({ connectionString: h.db.url });
      await locker.connect();
      try {
        await locker.query('BEGIN');
        await locker.query('LOCK TABLE roster_users, roster_orgs, roster_user_roles IN ACCESS EXCLUSIVE MODE');
        const again = await get(h.app, path, partner).timeout(5_000).expect(200);
        expect(again.headers.etag).toBe(first.headers.etag);
        expect(again.text).toBe(first.text);
        await get(h.app, path, partner, first.headers.etag).timeout(5_000).expect(304);
      } finally {
        await locker.query('ROLLBACK');
        await locker.end();
      }
    });

    it("serves a deployment with other settings its own bytes, never another deployment's cached page", async () => {
      const iso = await h.otherApp(I, { onerosterDateFormat: 'iso8601' });
      const path = `${PREFIX}/users/usr-s1`;
      const compact = await get(h.app, path, reader).expect(200);
      expect(compact.body.user.dateLastModified).toMatch(/^\d{8}T/);
      const isoAnswer = await get(h.app, path, await h.token(iso, [SCOPE.roster])).expect(200);
      expect(isoAnswer.body.user.dateLastModified).toMatch(/^\d{4}-\d{2}-\d{2}T/);
      expect(isoAnswer.headers.etag).not.toBe(compact.headers.etag);
    });
  });

  describe('answers from memory', () => {
    it('revalidates and serves a token of the same visibility without reading rows (their tables locked)', async () => {
      const path = `${PREFIX}/users?limit=3`;
      const first = await get(h.app, path, reader).expect(200);
      const locker = new Client({ connectionString: h.db.url });
      await locker.connect();
      try {
        await locker.query('BEGIN');
        await locker.query('LOCK TABLE roster_users, roster_orgs, roster_user_roles IN ACCESS EXCLUSIVE MODE');
        const fresh = await h.token(I, [SCOPE.roster]);
        await get(h.app, path, fresh, first.headers.etag).timeout(5_000).expect(304);
        const again = await get(h.app, path, fresh).timeout(5_000).expect(200);
        expect(again.text).toBe(first.text);
        expect(again.headers.etag).toBe(first.headers.etag);
        expect(again.headers['x-total-count']).toBe(first.headers['x-total-count']);
        expect(again.headers.link).toBe(first.headers.link);
      } finally {
        await locker.query('ROLLBACK');
        await locker.end();
      }
    });

    it('keeps nothing with ONEROSTER_RESPONSE_CACHE_BYTES=0, and still answers tags and 304', async () => {
      const uncached = await h.boot({ ONEROSTER_RESPONSE_CACHE_BYTES: '0' });
      try {
        const path = `${PREFIX}/users?limit=4`;
        const first = await get(uncached, path, reader).expect(200);
        expect(first.headers.etag).toBe((await get(h.app, path, reader).expect(200)).headers.etag);
        await get(uncached, path, reader, first.headers.etag).expect(304);
        expect(uncached.get(ResponseCache).size).toBe(0);
        expect(h.app.get(ResponseCache).size).toBeGreaterThan(0);
      } finally {
        await uncached.close();
      }
    });
  });

  describe('reads without validators, rendered under the versions last seen (read with the rows)', () => {
    /** No response cache: every plain read after the first takes the versions from the page's own statement. */
    let plain: NestExpressApplication;
    const outcomes = async (app: NestExpressApplication, outcome: string): Promise<number> => {
      const text = (await request(app.getHttpServer()).get('/metrics').expect(200)).text;
      const m = new RegExp(`^oneroster_reads_total\\{outcome="${outcome}"\\} (\\d+)`, 'm').exec(text);
      return m ? Number(m[1]) : 0;
    };
    const givenName = (body: Record<string, unknown>) => (body.user as { givenName: string }).givenName;

    beforeAll(async () => {
      plain = await h.boot({ ONEROSTER_RESPONSE_CACHE_BYTES: '0' });
    });

    afterAll(async () => {
      await plain?.close();
    });

    it('answers the same bytes and tag as a read of the versions first, and renders once while nothing changes', async () => {
      const path = `${PREFIX}/users?limit=3&offset=1`;
      const first = await get(plain, path, reader).expect(200);
      const missed = await outcomes(plain, 'guess_missed');
      const rendered = await outcomes(plain, 'rendered');
      const again = await get(plain, path, reader).expect(200);
      expect(again.text).toBe(first.text);
      expect(again.headers.etag).toBe(first.headers.etag);
      expect(again.headers.etag).toBe((await get(other, path, reader).expect(200)).headers.etag);
      expect(await outcomes(plain, 'rendered')).toBe(rendered + 1);
      expect(await outcomes(plain, 'guess_missed')).toBe(missed);
    });

    it('a change through another instance since the versions were last seen: the next plain read renders again and answers the new data under the new tag', async () => {
      const path = `${PREFIX}/users/usr-t1`;
      const before = await get(plain, path, reader).expect(200);
      const missed = await outcomes(plain, 'guess_missed');
      const p = clonePackage(schoolPackage());
      p.files['users.csv']!.rows.find((r) => r.sourcedId === 'usr-t1')!.givenName = 'Guessed';
      await importPackage(p);
      const after = await get(plain, path, reader).expect(200);
      expect(givenName(after.body as Record<string, unknown>)).toBe('Guessed');
      expect(after.headers.etag).not.toBe(before.headers.etag);
      expect(after.headers.etag).toBe((await get(other, path, reader).expect(200)).headers.etag);
      expect(await outcomes(plain, 'guess_missed')).toBe(missed + 1);
      await get(other, path, reader, after.headers.etag).expect(304);
    });

    it('an empty page, whose statement carries no versions: read after it, they still catch a change since they were last seen', async () => {
      const empty = (name: string) => `${PREFIX}/users?filter=${encodeURIComponent(`givenName='${name}'`)}`;
      await get(plain, empty('Nobody-1'), reader).expect(200);
      const missed = await outcomes(plain, 'guess_missed');
      const p = clonePackage(schoolPackage());
      p.files['users.csv']!.rows.find((r) => r.sourcedId === 'usr-t1')!.givenName = 'Bracketed';
      await importPackage(p);
      const after = await get(plain, empty('Nobody-2'), reader).expect(200);
      expect((after.body as { users: unknown[] }).users).toEqual([]);
      expect(after.headers.etag).toBe((await get(other, empty('Nobody-2'), reader).expect(200)).headers.etag);
      expect(await outcomes(plain, 'guess_missed')).toBe(missed + 1);
      const unchanged = await get(plain, empty('Nobody-3'), reader).expect(200);
      expect(unchanged.headers.etag).toBe((await get(other, empty('Nobody-3'), reader).expect(200)).headers.etag);
      expect(await outcomes(plain, 'guess_missed')).toBe(missed + 1);
    });

    it('a gradebook write does not make a roster read render twice (its tag does not depend on the gradebook version)', async () => {
      const path = `${PREFIX}/users/usr-s-09`;
      const token = await h.token(w.D, [SCOPE.roster]);
      const before = await get(plain, path, token).expect(200);
      const missed = await outcomes(plain, 'guess_missed');
      const grader = await h.token(w.D, [SCOPE.gradebookPut]);
      await h
        .put(
          'results/r-guess-1',
          {
            result: {
              lineItem: { sourcedId: 'li-alg1-hw1' },
              student: { sourcedId: 'usr-s-09' },
              scoreStatus: 'fully graded',
              score: 3,
              scoreDate: '2024-03-10',
            },
          },
          grader,
        )
        .expect(201);
      const after = await get(plain, path, token).expect(200);
      expect(after.headers.etag).toBe(before.headers.etag);
      expect(await outcomes(plain, 'guess_missed')).toBe(missed);
    });
  });

  it('counts each way a read was answered, and the bytes the cache holds, in /metrics', async () => {
    const text = (await request(h.app.getHttpServer()).get('/metrics').expect(200)).text;
    for (const outcome of ['not_modified', 'cached', 'rendered', 'untagged'])
      expect(text).toMatch(new RegExp(`^oneroster_reads_total\\{outcome="${outcome}"\\} [1-9]`, 'm'));
    expect(text).toMatch(/^oneroster_response_cache_bytes [1-9]/m);
  });

  describe('every change of data or visibility is seen at once by every instance', () => {
    const givenName = (body: Record<string, unknown>) => (body.user as { givenName: string }).givenName;

    it('a bulk import', async () => {
      const p = clonePackage(schoolPackage());
      p.files['users.csv']!.rows.find((r) => r.sourcedId === 'usr-s2')!.givenName = 'Alia';
      await expectChangeSeen(
        `${PREFIX}/users/usr-s2`,
        reader,
        () => importPackage(p),
        (body) => expect(givenName(body)).toBe('Alia'),
      );
    });

    it('a delta import', async () => {
      const p = clonePackage(schoolPackage());
      for (const type of ['orgs', 'academicSessions', 'courses', 'classes', 'demographics', 'enrollments'] as const)
        setMode(p, type, 'absent');
      setMode(p, 'users', 'delta');
      p.files['users.csv']!.rows = [
        {
          sourcedId: 'usr-s2',
          status: 'active',
          dateLastModified: '2025-05-01T10:00:00.000Z',
          enabledUser: 'true',
          orgSourcedIds: 'org-s2',
          role: 'student',
          username: 'ali.r',
          givenName: 'Aliya',
          familyName: 'Rahman',
          grades: '08',
        },
      ];
      await expectChangeSeen(
        `${PREFIX}/users/usr-s2`,
        reader,
        () => importPackage(p),
        (body) => expect(givenName(body)).toBe('Aliya'),
      );
    });

    it('a deployment settings change', async () => {
      const setSettings = (settings: object) =>
        h.ds.query('UPDATE tenant_app_deployments SET settings = $2 WHERE id = $1', [
          I.deploymentId,
          JSON.stringify(settings),
        ]);
      try {
        await expectChangeSeen(
          `${PREFIX}/users/usr-s1`,
          reader,
          () => setSettings({ onerosterDateFormat: 'iso8601' }),
          (body) => expect((body.user as { dateLastModified: string }).dateLastModified).toMatch(/^\d{4}-\d{2}-\d{2}T/),
        );
      } finally {
        await setSettings({});
      }
    });

    it("the tenant's root org", async () => {
      const setRoot = (root: string | null) =>
        h.ds.query('UPDATE tenants SET root_org_sourced_id = $2 WHERE id = $1', [I.tenantId, root]);
      try {
        await expectChangeSeen(
          `${PREFIX}/schools`,
          reader,
          () => setRoot('org-s1'),
          (body) => expect((body.orgs as Array<{ sourcedId: string }>).map((o) => o.sourcedId)).toEqual(['org-s1']),
        );
      } finally {
        await setRoot(null);
      }
    });

    it("the tenant's licence withdrawn: refused even with the current tag, then served again", async () => {
      const path = `${PREFIX}/users/usr-s1`;
      const setLicences = (licences: string[]) =>
        h.ds.query('UPDATE tenants SET licences = $2 WHERE id = $1', [I.tenantId, licences]);
      const { headers } = await get(other, path, reader).expect(200);
      try {
        await setLicences([]);
        for (const app of [other, h.app]) {
          await get(app, path, reader, headers.etag).expect(403);
          await get(app, path, reader).expect(403);
        }
      } finally {
        await setLicences(['data-operations']);
      }
      await get(other, path, reader, headers.etag).expect(304);
    });

    it('a scope change of the deployment: tokens granted other scopes never revalidate the old tag', async () => {
      const path = `${PREFIX}/users/usr-s1`;
      const before = await get(other, path, await h.token(I, [SCOPE.core])).expect(200);
      const widened = await get(
        other,
        path,
        await h.token(I, [SCOPE.core, SCOPE.demographics]),
        before.headers.etag,
      ).expect(200);
      expect(widened.headers.etag).not.toBe(before.headers.etag);
    });

    it('a v1.1 PUT and DELETE of a result', async () => {
      const token = await h.token(w.D, [SCOPE.gradebook, SCOPE.gradebookPut, SCOPE.gradebookDelete]);
      const path = `${PREFIX}/classes/cls-alg-1/results?limit=100`;
      const put = () =>
        h
          .put(
            'results/r-cache-1',
            {
              result: {
                lineItem: { sourcedId: 'li-alg1-hw1' },
                student: { sourcedId: 'usr-s-09' },
                scoreStatus: 'fully graded',
                score: 4,
                scoreDate: '2024-03-09',
              },
            },
            token,
          )
          .expect(201);
      const ids = (body: Record<string, unknown>) =>
        (body.results as Array<{ sourcedId: string }>).map((r) => r.sourcedId);
      await expectChangeSeen(path, token, put, (body) => expect(ids(body)).toContain('r-cache-1'));
      await expectChangeSeen(
        path,
        token,
        () => h.delete('results/r-cache-1', token).expect(204),
        (body) => expect(ids(body)).not.toContain('r-cache-1'),
      );
    });

    it('the total of a gradebook page short of the whole collection: a v1.1 PUT and DELETE of a result', async () => {
      // limit=1: every page is full, so its total is counted (and kept per gradebook version), not inferred.
      const token = await h.token(w.D, [SCOPE.gradebook, SCOPE.gradebookPut, SCOPE.gradebookDelete]);
      const path = `${PREFIX}/classes/cls-alg-1/results?limit=1`;
      const totals = async () => {
        const answers = [];
        // Twice through each instance: the second read of each finds the total it kept.
        for (const app of [other, h.app, other, h.app]) answers.push(await get(app, path, token).expect(200));
        return answers.map((r) => Number(r.headers['x-total-count']));
      };
      const [before] = await totals();
      expect(before).toBeGreaterThan(1);
      expect(await totals()).toEqual([before, before, before, before]);
      await h
        .put(
          'results/r-cache-total',
          resultBody({ lineItem: ref('li-alg1-quiz1'), score: 3, scoreDate: '2024-03-10' }),
          token,
        )
        .expect(201);
      const grown = (before as number) + 1;
      expect(await totals()).toEqual([grown, grown, grown, grown]);
      await h.delete('results/r-cache-total', token).expect(204);
      expect(await totals()).toEqual([before, before, before, before]);
    });

    it('a v1.2 PUT, bulk POST and DELETE of line items', async () => {
      const path = `${V1P2.gradebook}/classes/cls-alg-1/lineItems?limit=100`;
      const token = w.all;
      const ids = (body: Record<string, unknown>) =>
        (body.lineItems as Array<{ sourcedId: string }>).map((r) => r.sourcedId);
      const send = (method: 'put' | 'post' | 'delete', p: string, body?: object) => {
        const r = request(h.app.getHttpServer())
          [method](`${V1P2.gradebook}/${p}`)
          .set('Authorization', `Bearer ${token}`);
        return body ? r.send(body) : r;
      };
      await expectChangeSeen(
        path,
        token,
        () => send('put', 'lineItems/li-cache-put', lineItemBody()).expect(201),
        (body) => expect(ids(body)).toContain('li-cache-put'),
      );
      const { class: _c, ...posted } = lineItemBody().lineItem;
      await expectChangeSeen(
        path,
        token,
        () =>
          send('post', 'classes/cls-alg-1/lineItems', {
            lineItems: [{ ...posted, sourcedId: 'li-cache-post' }],
          }).expect(201),
        (body) => expect(ids(body).length).toBeGreaterThan(0),
      );
      await expectChangeSeen(
        path,
        token,
        () => send('delete', 'lineItems/li-cache-put').expect(204),
        (body) => expect(ids(body)).not.toContain('li-cache-put'),
      );
    });

    it('keeps roster tags across gradebook writes (they do not change a roster answer)', async () => {
      const path = `${V1P2.rostering}/classes/cls-alg-1`;
      const token = await h.token(w.D, [SCOPE_V1P2.rosterCore]);
      const before = await get(other, path, token).expect(200);
      await request(h.app.getHttpServer())
        .put(`${V1P2.gradebook}/results/r-cache-keep`)
        .set('Authorization', `Bearer ${w.all}`)
        .send(resultBody())
        .expect((res) => expect([200, 201]).toContain(res.status));
      await get(other, path, token, before.headers.etag).expect(304);
    });
  });
});
