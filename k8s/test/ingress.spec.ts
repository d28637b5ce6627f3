/**
 * The Ingress objects of every rendered stack: one per public host, named by the stack's
 * configuration, routing every public route of the apps (read from their controllers) to the
 * right Service and nothing else (no /health, no /metrics, no operator routes).
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { isObject, K8sObject, objectId, REPO_ROOT } from './kustomize';
import { alertsProxyNeeds, appRoutes, isOperatorRoute, OPS_ROUTES, samplePath } from './app-routes';
import { API_APPS, AppName, APPS } from './platform';
import { asArray, asObject, byKind, DEPLOYABLES, find, render } from './stacks';

interface IngressPath {
  path: string;
  pathType: string;
  service: string;
  port: string | number;
}

function pathsOf(ingress: K8sObject): Array<{ host: string; paths: IngressPath[] }> {
  return asArray(asObject(ingress.spec).rules)
    .filter(isObject)
    .map((rule) => ({
      host: typeof rule.host === 'string' ? rule.host : '',
      paths: asArray(asObject(rule.http).paths)
        .filter(isObject)
        .map((p) => {
          const service = asObject(asObject(p.backend).service);
          const port = asObject(service.port);
          return {
            path: String(p.path),
            pathType: String(p.pathType),
            service: String(service.name),
            port: (port.name ?? port.number) as string | number,
          };
        }),
    }));
}

const elements = (p: string): string[] => p.split('/').filter(Boolean);

/**
 * The Service a request for `host` + `path` reaches, with the Ingress API's matching rules (longest
 * match, Exact before Prefix). A host that some rule names gets only those rules; any other host
 * the rules without a host (ingress-nginx's default server).
 */
function routeOf(ingresses: K8sObject[], host: string, path: string): string | undefined {
  const rules = ingresses.flatMap(pathsOf);
  const named = rules.filter((r) => r.host === host);
  const candidates = (named.length > 0 ? named : rules.filter((r) => r.host === '')).flatMap((r) => r.paths);
  const matching = candidates.filter((c) => {
    if (c.pathType === 'Exact') return c.path === path;
    if (c.pathType === 'Prefix') {
      const want = elements(c.path);
      const have = elements(path);
      return want.length <= have.length && want.every((e, i) => have[i] === e);
    }
    throw new Error(`pathType ${c.pathType} has implementation-specific matching; use Prefix or Exact`);
  });
  matching.sort((a, b) => elements(b.path).length - elements(a.path).length || (a.pathType === 'Exact' ? -1 : 1));
  return matching[0]?.service;
}

function sizeInBytes(value: string): number {
  const m = /^(\d+)([kmg]?)$/i.exec(value);
  if (!m) throw new Error(`not a size: ${value}`);
  return Number(m[1]) * 1024 ** ['', 'k', 'm', 'g'].indexOf(m[2].toLowerCase());
}

/** A school's vanity domain: a host no Ingress names. */
const VANITY_HOST = 'portal.lioncity.example';

/**
 * Every request a browser makes on a vanity domain (apps/identity/test/sign-in-browser.int-spec.ts):
 * the app's authorization request and its resume after the portal, the portal's pages and forms,
 * its stylesheets, brand assets and provider buttons, RP-initiated logout, LTI launches
 * (apps/identity/test/sign-in-lti.int-spec.ts), and the school's page of apps (apps/identity/test/sign-in-portal-apps.int-spec.ts).
 */
const VANITY_ROUTES = [
  'GET /oidc/auth',
  'POST /oidc/auth',
  'GET /oidc/auth/:uid',
  'GET /oidc/session/end',
  'POST /oidc/session/end',
  'POST /oidc/session/end/confirm',
  'GET /oidc/session/end/success',
  'GET /signin/interaction/:uid',
  'POST /signin/interaction/:uid/start',
  'GET /signin/interaction/:uid/upstream',
  'POST /signin/interaction/:uid/abort',
  'GET /signin/assets/portal.css',
  'GET /signin/brand/:domain/brand.css',
  'GET /signin/brand/:domain/logo/:scheme',
  'GET /signin/brand/:domain/background',
  'GET /signin/brand/:domain/fonts/:family/:index',
  'GET /signin/providers/:id/button.svg',
  'GET /signin/lti/:provider_id/login',
  'POST /signin/lti/:provider_id/login',
  'POST /signin/lti/:provider_id/launch',
  'GET /signin/apps',
  'GET /signin/schools/:tenant_id/apps',
];

/**
 * Never on an arbitrary host: the Identity API, the token and provider back-channel endpoints, discovery, the upstream callback,
 * the SAML identity provider (its entity id and endpoints are on the issuer's host), docs, probes, metrics.
 */
const NEVER_ON_VANITY = [
  '/oauth/token',
  '/oidc/token',
  '/oidc/me',
  '/oidc/token/introspection',
  '/.well-known/openid-configuration',
  '/.well-known/jwks.json',
  '/signin/callback',
  '/saml/x1/sso',
  '/saml/complete',
  '/saml/x1/apps/x2/start',
  '/apps',
  '/signin/appsx',
  '/tenants/x1',
  '/vanity-domains/x1',
  '/docs',
  '/docs-json',
  ...OPS_ROUTES,
];

const routes = Object.fromEntries(APPS.map((app) => [app, appRoutes(app)])) as Record<
  AppName,
  ReturnType<typeof appRoutes>
>;

test('the apps declare routes to check (read from their controllers)', () => {
  expect(routes.identity.map((r) => r.path)).toEqual(
    expect.arrayContaining(['/oauth/token', '/.well-known/jwks.json', '/tenants/:id', '/oidc/auth']),
  );
  expect(routes.oneroster.map((r) => r.path)).toEqual(
    expect.arrayContaining([
      '/ims/oneroster/v1p1/users/:id',
      '/ims/oneroster/rostering/v1p2/users/:id',
      '/ims/oneroster/gradebook/v1p2/scoreScales/:id',
      '/admin/tenants/:tenantId/roster-imports',
    ]),
  );
  expect(routes.alerts.map((r) => r.path)).toEqual(
    expect.arrayContaining(['/v2/alerts/messages', '/v2/alerts/webhook/:id']),
  );
  expect(routes['webhook-dispatcher']).toEqual([]);
});

describe.each(Object.entries(DEPLOYABLES))('ingress of %s', (_name, { dir, apps }) => {
  let objects: K8sObject[] = [];
  let ingresses: K8sObject[] = [];
  const config = () => asObject(find(objects, 'ConfigMap', 'edu-platform-config').data);

  beforeAll(() => {
    objects = render(dir);
    ingresses = byKind(objects, 'Ingress');
  });

  /** identity on the TOKEN_ISSUER host; oneroster and alerts on the PUBLIC_BASE_URL host. */
  const hostOf = (app: AppName): string =>
    new URL(
      String(
        app === 'identity'
          ? config().TOKEN_ISSUER
          : asObject(find(objects, 'ConfigMap', 'edu-platform-public-url').data).PUBLIC_BASE_URL,
      ),
    ).hostname;

  /** The Ingresses of named hosts (the vanity domains' catch-all has a rule without a host). */
  const hostIngresses = () => ingresses.filter((i) => pathsOf(i).every((r) => r.host !== ''));

  test('one Ingress per public host, named by the configuration the apps run with, each with TLS', () => {
    const publicApps = apps.filter((a) => API_APPS.includes(a));
    const hosts = [...new Set(publicApps.map(hostOf))].sort();
    expect(
      hostIngresses()
        .flatMap((i) => pathsOf(i).map((r) => r.host))
        .sort(),
    ).toEqual(hosts);
    for (const i of hostIngresses()) {
      const spec = asObject(i.spec);
      expect(pathsOf(i)).toHaveLength(1);
      expect(spec.ingressClassName).toBe('nginx');
      const tls = asArray(spec.tls).filter(isObject);
      expect({
        id: objectId(i),
        tlsHosts: tls.flatMap((t) => asArray(t.hosts)),
        secret: typeof tls[0]?.secretName,
      }).toEqual({ id: objectId(i), tlsHosts: [pathsOf(i)[0].host], secret: 'string' });
    }
  });

  test('every backend is a Service of this stack and a port it declares', () => {
    for (const i of ingresses) {
      for (const p of pathsOf(i).flatMap((r) => r.paths)) {
        const service = find(objects, 'Service', p.service);
        expect(
          asArray(asObject(service.spec).ports)
            .filter(isObject)
            .map((sp) => sp.name),
        ).toContain(p.port);
      }
    }
  });

  test('the API host routes OneRoster 1.1, the three OneRoster 1.2 services and /v2/alerts, and nothing else', () => {
    const api = ingresses.filter((i) => pathsOf(i).some((r) => r.paths.some((p) => p.service !== 'identity')));
    if (!apps.includes('oneroster')) return expect(api).toEqual([]);
    expect(api).toHaveLength(1);
    expect(pathsOf(api[0])[0].paths.map((p) => `${p.pathType} ${p.path} -> ${p.service}`)).toEqual([
      'Prefix /ims/oneroster/v1p1 -> oneroster',
      'Prefix /ims/oneroster/rostering/v1p2 -> oneroster',
      'Prefix /ims/oneroster/gradebook/v1p2 -> oneroster',
      'Prefix /ims/oneroster/resources/v1p2 -> oneroster',
      'Prefix /roster-events/v1 -> oneroster',
      'Prefix /v2/alerts -> alerts',
    ]);
  });

  test("every public route of each app reaches the app's Service on its host", () => {
    for (const app of apps.filter((a) => API_APPS.includes(a))) {
      const unrouted = routes[app]
        .filter((r) => !isOperatorRoute(r.path) && routeOf(ingresses, hostOf(app), samplePath(r.path)) !== app)
        .map((r) => `${r.method} ${r.path}`);
      expect({ app, unrouted }).toEqual({ app, unrouted: [] });
    }
  });

  test('health, metrics, operator routes and the dispatcher are not routed on any host', () => {
    const hosts = [...hostIngresses().flatMap((i) => pathsOf(i).map((r) => r.host)), VANITY_HOST];
    const hidden = [
      ...OPS_ROUTES,
      ...APPS.flatMap((a) => routes[a].filter((r) => isOperatorRoute(r.path)).map((r) => samplePath(r.path))),
    ];
    expect(hidden.length).toBeGreaterThan(OPS_ROUTES.length);
    for (const host of hosts)
      for (const path of hidden)
        expect({ host, path, service: routeOf(ingresses, host, path) }).toEqual({ host, path, service: undefined });
    for (const p of ingresses.flatMap(pathsOf).flatMap((r) => r.paths)) expect(p.service).not.toMatch(/dispatcher/);
  });

  test('a vanity domain (any host no Ingress names) reaches identity for the sign-in paths a browser uses there, and nothing else', () => {
    const catchAll = ingresses.filter((i) => pathsOf(i).some((r) => r.host === ''));
    if (!apps.includes('identity')) return expect(catchAll).toEqual([]);
    expect(catchAll.map((i) => i.metadata.name)).toEqual(['identity-vanity']);
    expect(asObject(catchAll[0].metadata.annotations)['nginx.ingress.kubernetes.io/force-ssl-redirect']).toBe('true');
    const reached = routes.identity
      .filter((r) => routeOf(ingresses, VANITY_HOST, samplePath(r.path)) === 'identity')
      .map((r) => `${r.method} ${r.path}`);
    expect(reached.sort()).toEqual([...VANITY_ROUTES].sort());
    const unreachable = APPS.flatMap((a) => routes[a]).filter(
      (r) =>
        !VANITY_ROUTES.includes(`${r.method} ${r.path}`) &&
        routeOf(ingresses, VANITY_HOST, samplePath(r.path)) !== undefined,
    );
    expect(unreachable.map((r) => `${r.method} ${r.path}`)).toEqual([]);
    for (const path of NEVER_ON_VANITY)
      expect({ path, service: routeOf(ingresses, VANITY_HOST, path) }).toEqual({ path, service: undefined });
    // The named hosts keep their own routes: the catch-all adds nothing to them.
    if (apps.includes('oneroster'))
      expect(routeOf(ingresses, hostOf('oneroster'), '/signin/interaction/x1')).toBeUndefined();
  });

  test("the API host's proxy limits leave room for the apps' own (alert batches of 32 MiB, test deliveries waiting 35 s)", () => {
    const needs = alertsProxyNeeds();
    for (const i of ingresses) {
      const annotations = asObject(i.metadata.annotations);
      const bodyLimit = sizeInBytes(String(annotations['nginx.ingress.kubernetes.io/proxy-body-size']));
      const apps_ = new Set(pathsOf(i).flatMap((r) => r.paths.map((p) => p.service)));
      // Above the apps' limits, so the apps answer 413 in their own error format.
      expect(bodyLimit).toBeGreaterThan(Number(config().BODY_LIMIT_BYTES));
      if (apps_.has('alerts')) {
        expect(bodyLimit).toBeGreaterThan(needs.messagesBodyLimitBytes);
        expect(Number(annotations['nginx.ingress.kubernetes.io/proxy-read-timeout'])).toBeGreaterThan(
          needs.testWaitMs / 1000,
        );
      }
    }
  });
});

test("the operator guide's per-domain Ingress (a vanity domain's certificate) routes exactly the catch-all's paths", () => {
  const guide = fs.readFileSync(path.join(REPO_ROOT, 'docs/operators/sign-in.md'), 'utf8');
  const documented = [...guide.matchAll(/--rule='[^/']+(\/[^*']*)\*=identity:http,tls=[\w-]+'/g)].map(
    (m) => `Prefix ${m[1]}`,
  );
  const catchAll = find(render('base'), 'Ingress', 'identity-vanity');
  expect(documented).toEqual(pathsOf(catchAll)[0].paths.map((p) => `${p.pathType} ${p.path}`));
});

test('Ingress path matching follows the Ingress API (element-wise Prefix, Exact, longest match)', () => {
  const ingress: K8sObject = {
    apiVersion: 'networking.k8s.io/v1',
    kind: 'Ingress',
    metadata: { name: 'x' },
    spec: {
      rules: [
        {
          host: 'h',
          http: {
            paths: [
              { path: '/docs', pathType: 'Prefix', backend: { service: { name: 'a', port: { name: 'http' } } } },
              { path: '/docs-json', pathType: 'Exact', backend: { service: { name: 'b', port: { name: 'http' } } } },
              { path: '/docs/deep', pathType: 'Prefix', backend: { service: { name: 'c', port: { name: 'http' } } } },
            ],
          },
        },
      ],
    },
  };
  expect(
    ['/docs', '/docs/', '/docs/x', '/docs-json', '/docs-json/x', '/docsx', '/docs/deep/y', '/other'].map((p) =>
      routeOf([ingress], 'h', p),
    ),
  ).toEqual(['a', 'a', 'a', 'b', undefined, undefined, 'c', undefined]);
  expect(routeOf([ingress], 'other-host', '/docs')).toBeUndefined();
  const catchAll: K8sObject = {
    ...ingress,
    spec: {
      rules: [
        {
          http: {
            paths: [
              { path: '/signin', pathType: 'Prefix', backend: { service: { name: 'd', port: { name: 'http' } } } },
            ],
          },
        },
      ],
    },
  };
  // A rule without a host serves every host that no rule names, and only those.
  expect(['other-host', 'h'].map((host) => routeOf([ingress, catchAll], host, '/signin/x'))).toEqual(['d', undefined]);
});
