/**
 * Links and hrefs are built on the configured public URL only. A client can send any Host,
 * X-Forwarded-* or Forwarded header (or an absolute request target): none of it may reach an
 * answer, since answers are cached and followed by other clients.
 */
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { NestExpressApplication } from '@nestjs/platform-express';
import request from 'supertest';
import { DEFAULT_ONEROSTER_SCOPE_BASE } from '@edu/domain';
import { HREF_ROOT, PREFIX, RosterHarness, SCOPE, type TenantSetup } from './support/harness';
import { parseLinks } from './support/imsx';
import { loadFixture } from './support/load';
import { districtFixture } from './support/roster-fixture';

/** Headers a client (or a misconfigured proxy in front) can set to suggest another origin. */
const FORGED: Readonly<Record<string, string>> = {
  Host: 'forged-host.example:8443',
  'X-Forwarded-Host': 'forged-xfh.example',
  'X-Forwarded-Proto': 'gopher',
  'X-Forwarded-Port': '6553',
  'X-Forwarded-Prefix': '/forged-prefix',
  'X-Forwarded-Server': 'forged-xfs.example',
  'X-Original-Host': 'forged-xoh.example',
  'X-Host': 'forged-xh.example',
  Forwarded: 'for=203.0.113.7;host=forged-fwd.example;proto=gopher',
};
// A forged port would show as `:6553` in a URL; bare digits also occur in random ids.
const MARKERS = ['forged', 'gopher', ':6553'];
/** URIs that name things rather than link to them (the scopes a 403 asks for). */
const IDENTIFIERS = [`${DEFAULT_ONEROSTER_SCOPE_BASE}/`];

interface Answer {
  readonly status: number;
  readonly headers: Record<string, unknown>;
  readonly text: string;
}

/** Every absolute URL anywhere in an answer's headers and body. */
function urlsIn(answer: Answer): string[] {
  return `${JSON.stringify(answer.headers)}\n${answer.text}`.match(/[a-z][a-z0-9+.-]*:\/\/[^\s"'<>\\]+/gi) ?? [];
}

/** Nothing of the forged headers in the answer, and every URL in it on `root`. */
function expectOnlyConfiguredLinks(label: string, answer: Answer, root: string): void {
  const everything = `${JSON.stringify(answer.headers)}\n${answer.text}`;
  expect({ label, leaked: MARKERS.filter((m) => everything.toLowerCase().includes(m)) }).toEqual({ label, leaked: [] });
  const foreign = urlsIn(answer).filter(
    (url) => !url.startsWith(`${root}/`) && !IDENTIFIERS.some((id) => url.startsWith(id)),
  );
  expect({ label, foreign }).toEqual({ label, foreign: [] });
}

describe('OneRoster links under forged host headers', () => {
  const h = new RosterHarness();
  let D: TenantSetup;
  let token: string;
  let coreOnly: string;
  let gradebook: string;

  beforeAll(async () => {
    await h.start();
    D = await h.tenant({ rootOrg: 'org-d1' });
    await loadFixture(h, D, districtFixture());
    token = await h.token(D, [SCOPE.roster, SCOPE.demographics]);
    coreOnly = await h.token(D, [SCOPE.core]);
    gradebook = await h.token(D, [SCOPE.gradebook, SCOPE.gradebookPut]);
    await h
      .put(
        'lineItems/li-1',
        {
          lineItem: {
            title: 'Quiz',
            assignDate: '2024-01-01T00:00:00Z',
            dueDate: '2024-01-02T00:00:00Z',
            class: { sourcedId: 'cls-alg-1' },
          },
        },
        gradebook,
      )
      .expect(201);
  });

  afterAll(() => h.stop());

  const forged = (r: request.Test): request.Test => {
    for (const [name, value] of Object.entries(FORGED)) r.set(name, value);
    return r;
  };
  const get = (path: string, tok = token, app?: NestExpressApplication) => forged(h.get(path, tok, app));

  /** Collections (Link headers, GUIDRefs), single objects, warnings and every kind of error. */
  const ANSWERS: ReadonlyArray<[label: string, send: () => request.Test, status: number, links: number]> = [
    ['users page in the middle', () => get('users?limit=2&offset=2&fields=sourcedId,orgs,agents'), 200, 4],
    [
      'filtered, sorted relationship collection',
      () => get(`schools/org-s1/classes?limit=1&data_field=title&filter=${encodeURIComponent("status='active'")}`),
      200,
      3,
    ],
    ['last page of enrollments', () => get('enrollments?limit=5&offset=5000'), 200, 3],
    ['students descending', () => get('students?limit=3&orderBy=desc'), 200, 3],
    [
      'collection with a warning',
      () => get('orgs?limit=1&data_field=nickname&fields=sourcedId,parent,children,bogus'),
      200,
      3,
    ],
    ['empty collection', () => get('terms/NOPE/classes'), 200, 2],
    ['class with GUIDRefs', () => get('classes/cls-alg-2'), 200, 4],
    ['parent user with agents', () => get('users/usr-p-01'), 200, 3],
    ['district with children', () => get('orgs/org-d1'), 200, 3],
    ['enrollment', () => get('enrollments/enr-bio-1-t-02'), 200, 3],
    ['term with parent and children', () => get('terms/as-t1'), 200, 3],
    ['unknown object', () => get('users/no-such-user'), 404, 0],
    ['bad filter', () => get(`users?filter=${encodeURIComponent("nickname='x'")}`), 400, 0],
    ['bad limit', () => get('users?limit=0'), 400, 0],
    ['no token', () => get('users', ''), 401, 0],
    ['missing scope', () => get('demographics', coreOnly), 403, 0],
    ['gradebook route without its scope', () => get('lineItems'), 403, 0],
    ['gradebook collection', () => get('classes/cls-alg-1/lineItems', gradebook), 200, 3],
    [
      'gradebook PUT creating (Location)',
      () =>
        forged(
          h.put(
            'results/r-1',
            {
              result: {
                lineItem: { sourcedId: 'li-1' },
                student: { sourcedId: 'usr-s-01' },
                scoreStatus: 'exempt',
                scoreDate: '2024-01-03',
              },
            },
            gradebook,
          ),
        ),
      201,
      3,
    ],
    [
      'gradebook PUT replacing',
      () =>
        forged(
          h.put(
            'lineItems/li-1',
            {
              lineItem: {
                title: 'Quiz 1',
                assignDate: '2024-01-01T00:00:00Z',
                dueDate: '2024-01-02T00:00:00Z',
                class: { sourcedId: 'cls-alg-1' },
              },
            },
            gradebook,
          ),
        ),
      200,
      1,
    ],
    ['unknown route', () => get('nothing-here'), 404, 0],
    [
      'write method',
      () =>
        forged(request(h.app.getHttpServer()).post(`${PREFIX}/users`).set('Authorization', `Bearer ${token}`).send({})),
      405,
      0,
    ],
  ];

  it.each(ANSWERS)('%s: no forged origin in headers or body', async (label, send, status, links) => {
    const res = await send();
    expect(res.status).toBe(status);
    expectOnlyConfiguredLinks(label, res, HREF_ROOT);
    // Positive control: the answer does carry the links it should, on the configured URL.
    expect(urlsIn(res).length).toBeGreaterThanOrEqual(links);
  });

  it('puts the configured URL in every Link of a collection', async () => {
    const res = await get('users?limit=2&offset=2').expect(200);
    const links = parseLinks(res.headers['link']);
    expect(Object.keys(links).sort()).toEqual(['first', 'last', 'next', 'prev']);
    for (const url of Object.values(links)) expect(`${url.origin}${url.pathname}`).toBe(`${HREF_ROOT}/users`);
  });

  it('matches href filters against the configured URL, not the forged one', async () => {
    const ours = await get(`classes?filter=${encodeURIComponent(`school.href='${HREF_ROOT}/orgs/org-s2'`)}`).expect(
      200,
    );
    expect(ours.body.classes.map((c: { sourcedId: string }) => c.sourcedId)).toEqual([
      'cls-art-7',
      'cls-eng-7a',
      'cls-hr-7',
    ]);
    for (const root of [
      'https://forged-host.example:8443',
      'http://forged-host.example:8443',
      'gopher://forged-xfh.example',
    ]) {
      const theirs = await get(
        `classes?filter=${encodeURIComponent(`school.href='${root}${PREFIX}/orgs/org-s2'`)}`,
      ).expect(200);
      expect(theirs.body.classes).toEqual([]);
      expect(theirs.headers['x-total-count']).toBe('0');
    }
  });

  it('ignores an absolute request target naming another host', async () => {
    const server = h.app.getHttpServer() as http.Server;
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const { port } = server.address() as AddressInfo;
      for (const target of [
        `http://forged-target.example${PREFIX}/users?limit=1`,
        `http://forged-target.example${PREFIX}/classes/cls-alg-2`,
      ]) {
        const answer = await new Promise<Answer>((resolve, reject) => {
          const req = http.request(
            { host: '127.0.0.1', port, path: target, headers: { ...FORGED, Authorization: `Bearer ${token}` } },
            (res) => {
              let text = '';
              res.setEncoding('utf8');
              res.on('data', (chunk: string) => (text += chunk));
              res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, text }));
            },
          );
          req.on('error', reject);
          req.end();
        });
        expect({ target, status: answer.status }).toEqual({ target, status: 200 });
        expectOnlyConfiguredLinks(target, answer, HREF_ROOT);
        expect(urlsIn(answer).length).toBeGreaterThan(0);
      }
    } finally {
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
  });

  describe('in development without PUBLIC_BASE_URL', () => {
    let dev: NestExpressApplication;
    beforeAll(async () => {
      dev = await h.boot({ NODE_ENV: 'development', PUBLIC_BASE_URL: '', PORT: '3901' });
    });
    afterAll(() => dev?.close());

    it('builds links on http://localhost:<PORT>, whatever the request says', async () => {
      const root = `http://localhost:3901${PREFIX}`;
      const single = await get('classes/cls-alg-1', token, dev).expect(200);
      expect(single.body.class.school.href).toBe(`${root}/orgs/org-s1`);
      expectOnlyConfiguredLinks('single', single, root);
      const list = await get('classes?limit=1', token, dev).expect(200);
      expect(parseLinks(list.headers['link']).next?.href).toBe(`${root}/classes?limit=1&offset=1`);
      expectOnlyConfiguredLinks('list', list, root);
    });
  });
});
