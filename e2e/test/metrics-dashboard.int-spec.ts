import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { ScopeCatalog } from '@edu/domain';
import { sampleAlertMessage, WebhookReceiver } from '@edu/testing';
import { clientToken, jsonCall } from './http';
import { LOCAL_WEBHOOKS, partnerWorld, type PartnerWorld } from './partner-world';
import { startService, type ServiceProcess } from './processes';

const DASHBOARD_FILE = path.resolve(__dirname, '../../k8s/monitoring/grafana-dashboard.json');

const catalog = new ScopeCatalog({
  schemaBase: 'https://api.edu.example',
  onerosterBase: 'https://purl.imsglobal.org/spec/or/v1p1/scope',
});
const SCOPES = [
  catalog.uri('roster-core.readonly'),
  catalog.uri('alerts.webhooks.write'),
  catalog.uri('alerts.messages.read'),
];
const OPERATOR_SECRET = 'e2e-operator-secret-0123456789';

/** Labels Prometheus adds at scrape time (target labels), so they are never in a /metrics page. */
const TARGET_LABELS = new Set(['namespace', 'pod', 'job', 'instance', 'container', 'node', 'service']);

// ---------------------------------------------------------------------------------------------
// Prometheus text format

interface Sample {
  name: string;
  labels: Record<string, string>;
}

interface Scrape {
  /** Metric family name -> type, from the `# TYPE` lines. */
  families: Map<string, string>;
  samples: Sample[];
}

function parseLabels(text: string): Record<string, string> {
  const labels: Record<string, string> = {};
  const re = /([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\]|\\.)*)"/g;
  for (let m = re.exec(text); m; m = re.exec(text))
    labels[m[1]] = m[2].replace(/\\(.)/g, (_, c: string) => (c === 'n' ? '\n' : c));
  return labels;
}

function parseExposition(text: string): Scrape {
  const families = new Map<string, string>();
  const samples: Sample[] = [];
  for (const line of text.split('\n')) {
    if (line.startsWith('# TYPE ')) {
      const [, , name, type] = line.split(' ');
      families.set(name, type);
    } else if (line && !line.startsWith('#')) {
      const m = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(\{.*\})?\s+\S+/.exec(line);
      if (!m) throw new Error(`not a Prometheus sample line: ${line}`);
      samples.push({ name: m[1], labels: m[2] ? parseLabels(m[2]) : {} });
    }
  }
  return { families, samples };
}

/** Every series name a family declares: a histogram is `_bucket`, `_sum` and `_count`. */
function seriesNames(scrape: Scrape): Set<string> {
  const names = new Set<string>();
  for (const [family, type] of scrape.families) {
    if (type === 'histogram') for (const suffix of ['_bucket', '_sum', '_count']) names.add(family + suffix);
    else if (type === 'summary') for (const suffix of ['', '_sum', '_count']) names.add(family + suffix);
    else names.add(family);
  }
  return names;
}

// ---------------------------------------------------------------------------------------------
// PromQL: the metric selectors of an expression

interface Selector {
  metric: string;
  matchers: Array<{ label: string; op: string; value: string }>;
}

const PROMQL_KEYWORDS = new Set([
  'by',
  'without',
  'on',
  'ignoring',
  'group_left',
  'group_right',
  'bool',
  'and',
  'or',
  'unless',
  'offset',
  'inf',
  'nan',
  'atan2',
]);

/**
 * The metric selectors of a PromQL expression: names not followed by `(` (functions and
 * aggregations) outside label matchers, range brackets and `by`/`without`/`on`/`ignoring` lists.
 */
function selectorsOf(expr: string): Selector[] {
  const out: Selector[] = [];
  let i = 0;
  const skipSpace = () => {
    while (i < expr.length && /\s/.test(expr[i])) i++;
  };
  while (i < expr.length) {
    const ch = expr[i];
    if (ch === '"' || ch === "'" || ch === '`') {
      const end = expr.indexOf(ch, i + 1);
      if (end < 0) throw new Error(`unterminated string in ${expr}`);
      i = end + 1;
    } else if (ch === '[') {
      i = expr.indexOf(']', i) + 1;
    } else if (/[0-9.]/.test(ch)) {
      const m = /^(?:\d+(?:\.\d*)?|\.\d+)(?:e[+-]?\d+)?/i.exec(expr.slice(i));
      i += m ? m[0].length : 1;
    } else if (ch === '$') {
      const m = /^\$\{?[a-zA-Z0-9_]+\}?/.exec(expr.slice(i));
      i += m ? m[0].length : 1;
    } else if (/[a-zA-Z_:]/.test(ch)) {
      const name = /^[a-zA-Z_:][a-zA-Z0-9_:]*/.exec(expr.slice(i))![0];
      i += name.length;
      skipSpace();
      if (PROMQL_KEYWORDS.has(name.toLowerCase())) {
        // `by (label, ...)` and friends: the list holds label names, not metrics.
        if (expr[i] === '(' && ['by', 'without', 'on', 'ignoring', 'group_left', 'group_right'].includes(name))
          i = expr.indexOf(')', i) + 1;
        continue;
      }
      if (expr[i] === '(' || /^(?:by|without)\s*\(/.test(expr.slice(i))) continue; // a function or aggregation
      const selector: Selector = { metric: name, matchers: [] };
      if (expr[i] === '{') {
        const end = expr.indexOf('}', i);
        const body = expr.slice(i + 1, end);
        const re = /([a-zA-Z_][a-zA-Z0-9_]*)\s*(=~|!~|!=|=)\s*"((?:[^"\\]|\\.)*)"/g;
        for (let m = re.exec(body); m; m = re.exec(body))
          selector.matchers.push({ label: m[1], op: m[2], value: m[3] });
        i = end + 1;
      }
      out.push(selector);
    } else if (ch === '{') {
      throw new Error(`a selector without a metric name is not supported here: ${expr}`);
    } else {
      i++;
    }
  }
  return out;
}

// ---------------------------------------------------------------------------------------------
// the dashboard

type Panel = {
  id: number;
  type: string;
  title: string;
  targets?: Array<{ expr?: string; refId: string; datasource?: { uid?: string } }>;
  panels?: Panel[];
  datasource?: { uid?: string };
  gridPos?: Record<string, number>;
};
type Dashboard = {
  title: string;
  uid: string;
  panels: Panel[];
  templating: { list: Array<{ name: string; type: string; query?: unknown; definition?: string }> };
};

const flatten = (panels: Panel[]): Panel[] => panels.flatMap((p) => [p, ...flatten(p.panels ?? [])]);

/** Every PromQL expression of the dashboard, with where it is: panel targets and variable queries. */
function dashboardQueries(dashboard: Dashboard): Array<{ where: string; expr: string }> {
  const out: Array<{ where: string; expr: string }> = [];
  for (const panel of flatten(dashboard.panels))
    for (const t of panel.targets ?? [])
      if (t.expr) out.push({ where: `panel "${panel.title}" ${t.refId}`, expr: t.expr });
  for (const v of dashboard.templating.list.filter((x) => x.type === 'query')) {
    const query = typeof v.query === 'string' ? v.query : (v.query as { query: string }).query;
    // label_values(<selector>, <label>): the selector is PromQL, the label is a label name.
    const m = /^label_values\((.*),\s*([a-zA-Z_][a-zA-Z0-9_]*)\)$/.exec(query);
    out.push({ where: `variable $${v.name}`, expr: m ? m[1] : query });
  }
  return out;
}

describe('Grafana dashboard (k8s/monitoring/grafana-dashboard.json)', () => {
  const dashboard = JSON.parse(fs.readFileSync(DASHBOARD_FILE, 'utf8')) as Dashboard;

  it('is a dashboard: unique panel ids, every graph on the Prometheus datasource variable with a PromQL target', () => {
    expect(dashboard).toMatchObject({ title: expect.any(String), uid: expect.stringMatching(/^[a-zA-Z0-9_-]{1,40}$/) });
    const panels = flatten(dashboard.panels);
    expect(new Set(panels.map((p) => p.id)).size).toBe(panels.length);
    const graphs = panels.filter((p) => p.type !== 'row');
    expect(graphs.length).toBeGreaterThanOrEqual(10);
    for (const p of graphs) {
      expect({
        title: p.title,
        datasource: p.datasource?.uid,
        targets: (p.targets ?? []).length > 0,
        grid: Object.keys(p.gridPos ?? {}).sort(),
      }).toEqual({
        title: p.title,
        datasource: '${datasource}',
        targets: true,
        grid: ['h', 'w', 'x', 'y'],
      });
      for (const t of p.targets!) expect(selectorsOf(t.expr ?? '').length).toBeGreaterThan(0);
    }
    expect(dashboard.templating.list.find((v) => v.name === 'datasource')).toMatchObject({
      type: 'datasource',
      query: 'prometheus',
    });
  });

  it('reads the PromQL selectors of an expression, not functions, label lists or durations', () => {
    expect(
      selectorsOf(
        'histogram_quantile(0.95, sum by (le, route) (rate(a_bucket{route=~"/x/.*", namespace=~"$namespace"}[$__rate_interval])))',
      ),
    ).toEqual([
      {
        metric: 'a_bucket',
        matchers: [
          { label: 'route', op: '=~', value: '/x/.*' },
          { label: 'namespace', op: '=~', value: '$namespace' },
        ],
      },
    ]);
    expect(selectorsOf('sum(rate(b_total[5m])) / sum without (pod) (c) > 1e-3').map((s) => s.metric)).toEqual([
      'b_total',
      'c',
    ]);
  });

  describe('against a /metrics scrape of the four running services', () => {
    let world: PartnerWorld;
    const services: ServiceProcess[] = [];
    let receiver: WebhookReceiver;
    const scrapes = new Map<string, Scrape>();
    let ids: { tenant: string; webhook: string; message: string; missing: string };

    beforeAll(async () => {
      world = await partnerWorld(SCOPES, { appName: 'Metrics Partner' });
      const { creds } = world;

      const common = {
        DATABASE_URL: world.db.url,
        REDIS_URL: process.env.REDIS_URL as string,
        QUEUE_PREFIX: '{e2e-metrics}',
        TOKEN_ISSUER: 'http://identity.e2e',
      };
      const identity = await startService('identity', { ...common, OPERATOR_CLIENT_SECRET: OPERATOR_SECRET });
      services.push(identity);
      const jwks = `${identity.url}/.well-known/jwks.json`;
      const started = await Promise.all([
        startService('oneroster', { ...common, JWKS_URL: jwks, PUBLIC_BASE_URL: 'https://roster.e2e.example' }),
        startService('alerts', { ...common, ...LOCAL_WEBHOOKS, JWKS_URL: jwks }),
        startService('webhook-dispatcher', {
          ...common,
          ...LOCAL_WEBHOOKS,
          ALERTS_PUBLIC_BASE_URL: 'https://alerts.e2e.example',
          WEBHOOK_RELAY_INTERVAL_MS: '200',
        }),
      ]);
      services.push(...started);
      const [oneroster, alerts] = started;
      receiver = await new WebhookReceiver({ jwksUrl: jwks }).start();

      // Traffic on routes with path parameters, so the route label can be checked for templates.
      const partner = await clientToken(identity.url, creds, { tenant_id: creds.tenantId });
      const operator = await clientToken(identity.url, { id: 'operator', secret: OPERATOR_SECRET });
      const missing = randomUUID();
      expect((await jsonCall('GET', `${identity.url}/tenants/${creds.tenantId}`, operator)).status).toBe(200);
      expect((await jsonCall('GET', `${identity.url}/tenants/${missing}`, operator)).status).toBe(404);
      expect((await jsonCall('GET', `${oneroster.url}/ims/oneroster/v1p1/users?limit=5`, partner)).status).toBe(200);
      expect((await jsonCall('GET', `${oneroster.url}/ims/oneroster/v1p1/users/${missing}`, partner)).status).toBe(404);
      expect(
        (await jsonCall('GET', `${oneroster.url}/ims/oneroster/v1p1/classes/${missing}/students`, partner)).status,
      ).toBeLessThan(500);
      const created = await jsonCall('POST', `${alerts.url}/v2/alerts/webhook`, partner, {
        endpoint: `${receiver.url}/metrics-hook`,
        type: 'notification-only',
      });
      expect(created.status).toBe(200);
      expect(
        (await jsonCall('GET', `${alerts.url}/v2/alerts/webhook/${created.body.webhook_id}`, partner)).status,
      ).toBe(200);
      const submitted = await jsonCall('POST', `${alerts.url}/v2/alerts/messages`, operator, {
        tenant_id: creds.tenantId,
        messages: [sampleAlertMessage()],
      });
      expect(submitted.status).toBe(201);
      const messageId = submitted.body.messages[0].message_id as string;
      await receiver.until((all) => all.some((d) => d.claims.sub === messageId), 30_000);
      expect((await jsonCall('GET', `${alerts.url}/v2/alerts/message/${messageId}`, partner)).status).toBe(200);
      ids = { tenant: creds.tenantId, webhook: created.body.webhook_id, message: messageId, missing };

      // The dispatcher counts an attempt once the receiver's answer is in: wait for the counter.
      const deadline = Date.now() + 15_000;
      for (;;) {
        const text = await (await fetch(`${started[2].url}/metrics`)).text();
        if (/^webhook_deliveries_total\{outcome="delivered"\} [1-9]/m.test(text)) break;
        if (Date.now() > deadline) throw new Error(`no delivered attempt counted by the dispatcher:\n${text}`);
        await new Promise((r) => setTimeout(r, 200));
      }
      for (const s of services) {
        const res = await fetch(`${s.url}/metrics`);
        expect(res.status).toBe(200);
        scrapes.set(s.name, parseExposition(await res.text()));
      }
    });

    afterAll(async () => {
      await Promise.all(services.map((s) => s.stop()));
      await receiver?.stop();
      await world?.stop();
    });

    const routesOf = (app: string): string[] => [
      ...new Set(
        scrapes
          .get(app)!
          .samples.filter((s) => s.name === 'http_request_duration_seconds_count')
          .map((s) => s.labels.route),
      ),
    ];

    it('labels API requests with the route template, never the raw path', () => {
      expect(routesOf('identity')).toEqual(expect.arrayContaining(['/oauth/token', '/tenants/:id']));
      expect(routesOf('oneroster')).toEqual(
        expect.arrayContaining([
          '/ims/oneroster/v1p1/users',
          '/ims/oneroster/v1p1/users/:id',
          '/ims/oneroster/v1p1/classes/:id/students',
        ]),
      );
      expect(routesOf('alerts')).toEqual(
        expect.arrayContaining([
          '/v2/alerts/webhook',
          '/v2/alerts/webhook/:id',
          '/v2/alerts/messages',
          '/v2/alerts/message/:id',
        ]),
      );
      for (const app of ['identity', 'oneroster', 'alerts']) {
        for (const route of routesOf(app)) {
          for (const id of Object.values(ids))
            expect({ app, route }).toEqual({ app, route: expect.not.stringContaining(id) });
          // A template or the fixed label for requests no route matched; no query strings.
          expect({ app, route }).toEqual({ app, route: expect.stringMatching(/^(\/[a-zA-Z0-9._:-]*)+$|^unmatched$/) });
        }
      }
    });

    it('counts and times requests per method, route and status', () => {
      const alerts = scrapes.get('alerts')!;
      expect(alerts.families.get('http_request_duration_seconds')).toBe('histogram');
      const statuses = alerts.samples
        .filter((s) => s.name === 'http_request_duration_seconds_count' && s.labels.route === '/v2/alerts/messages')
        .map((s) => `${s.labels.method} ${s.labels.status}`);
      expect(statuses).toContain('POST 201');
      const identity = scrapes
        .get('identity')!
        .samples.filter((s) => s.name === 'http_request_duration_seconds_count' && s.labels.route === '/tenants/:id')
        .map((s) => s.labels.status);
      expect(identity.sort()).toEqual(['200', '404']);
    });

    it('exposes the dispatcher and alerts metrics by their documented names', () => {
      const dispatcher = scrapes.get('webhook-dispatcher')!;
      expect(Object.fromEntries([...dispatcher.families].filter(([name]) => name.startsWith('webhook_')))).toEqual({
        webhook_deliveries_total: 'counter',
        webhook_attempt_duration_seconds: 'histogram',
        webhook_queue_jobs: 'gauge',
        webhook_queue_oldest_waiting_age_seconds: 'gauge',
        webhook_deliveries_deferred_total: 'counter',
        webhook_deliveries_requeued_total: 'counter',
        webhook_endpoints_disabled_total: 'counter',
        webhook_retry_after_total: 'counter',
        webhook_deliveries_throttled_total: 'counter',
        webhook_deliveries_held_total: 'counter',
      });
      expect(
        dispatcher.samples
          .filter((s) => s.name === 'webhook_queue_jobs')
          .map((s) => s.labels.state)
          .sort(),
      ).toEqual(['active', 'delayed', 'waiting']);
      expect(scrapes.get('alerts')!.families.get('alert_messages_stored_total')).toBe('counter');
    });

    it('finds every metric a dashboard panel or variable queries in the scrape, with the labels it filters and groups on', () => {
      const names = new Set([...scrapes.values()].flatMap((s) => [...seriesNames(s)]));
      const samples = [...scrapes.values()].flatMap((s) => s.samples);
      const queries = dashboardQueries(dashboard);
      expect(queries.length).toBeGreaterThanOrEqual(15);
      const problems: string[] = [];
      const used = new Set<string>();
      for (const { where, expr } of queries) {
        for (const sel of selectorsOf(expr)) {
          used.add(sel.metric);
          if (!names.has(sel.metric)) {
            problems.push(`${where}: ${sel.metric} is not in any /metrics scrape`);
            continue;
          }
          const ofMetric = samples.filter((s) => s.name === sel.metric);
          // A labelled counter nothing has incremented yet (re-queues) is declared but has no series to read labels from.
          if (ofMetric.length === 0) continue;
          const labels = new Set(ofMetric.flatMap((s) => Object.keys(s.labels)));
          for (const m of sel.matchers.filter((x) => !TARGET_LABELS.has(x.label))) {
            if (!labels.has(m.label)) problems.push(`${where}: ${sel.metric} has no label ${m.label}`);
            // A route named by value (exactly or by a regular expression) must be a route template that occurs.
            if (m.label !== 'route') continue;
            if (m.op === '=' && !ofMetric.some((s) => s.labels[m.label] === m.value))
              problems.push(`${where}: no ${sel.metric}{${m.label}="${m.value}"}`);
            if (m.op === '=~' && !ofMetric.some((s) => new RegExp(`^(?:${m.value})$`).test(s.labels[m.label] ?? '')))
              problems.push(`${where}: no ${sel.metric}{${m.label}=~"${m.value}"}`);
          }
        }
        // Labels grouped on must exist on the metric too (target labels come from Prometheus).
        for (const group of expr.matchAll(/\b(?:by|without)\s*\(([^)]*)\)/g)) {
          const metricsHere = selectorsOf(expr).map((s) => s.metric);
          const present = samples.filter((s) => metricsHere.includes(s.name));
          if (present.length === 0) continue;
          const labels = new Set(present.flatMap((s) => Object.keys(s.labels)));
          for (const label of group[1]
            .split(',')
            .map((l) => l.trim())
            .filter((l) => l && !TARGET_LABELS.has(l))) {
            if (!labels.has(label))
              problems.push(`${where}: groups by ${label}, which ${metricsHere.join(', ')} does not carry`);
          }
        }
      }
      expect(problems).toEqual([]);
      // The dashboard covers the API histogram, the alerts counter and every dispatcher metric.
      for (const metric of [
        'http_request_duration_seconds_count',
        'http_request_duration_seconds_bucket',
        'alert_messages_stored_total',
        'webhook_deliveries_total',
        'webhook_attempt_duration_seconds_bucket',
        'webhook_queue_jobs',
        'webhook_queue_oldest_waiting_age_seconds',
        'webhook_deliveries_deferred_total',
        'webhook_deliveries_requeued_total',
        'webhook_endpoints_disabled_total',
        'webhook_retry_after_total',
        'webhook_deliveries_throttled_total',
        'webhook_deliveries_held_total',
      ]) {
        expect(used).toContain(metric);
      }
    });
  });
});
