import { Webhook } from 'standardwebhooks';
import { ScopeCatalog } from '@edu/domain';
import { WebhookReceiver, type ReceivedDelivery } from '@edu/testing';
import { clientToken, jsonCall } from './http';
import { LOCAL_WEBHOOKS, partnerWorld, type PartnerWorld } from './partner-world';
import { startService, type ServiceProcess } from './processes';
import { rosterZip } from './roster-zip';

const catalog = new ScopeCatalog({
  schemaBase: 'https://api.edu.example',
  onerosterBase: 'https://purl.imsglobal.org/spec/or/v1p1/scope',
});
const SCOPES = [
  catalog.uri('v1p2.roster.readonly'),
  catalog.uri('gradebook.createput'),
  catalog.uri('gradebook.readonly'),
  catalog.uri('roster.events.readonly'),
  catalog.uri('alerts.webhooks.write'),
];
const OPERATOR_SECRET = 'e2e-operator-secret-roster-push';
/** Events per pushed delivery here: small, so the changes below take many batches. */
const BATCH = 25;
/**
 * The retry schedule scaled down 250 times (20 ms for 5 s): the 10 retries span ~20 s, as they
 * span ~85 min at the spec's pace. An outage of 14.5 s here is an hour there.
 */
const RETRY_BASE_MS = 20;
const HOUR_SCALED_MS = 14_500;

interface PushedEvent {
  id: string;
  type: string;
  object: string;
  sourcedId: string;
  data: Record<string, unknown> | null;
}
interface Batch {
  webhook_id: string;
  tenant_id: string;
  deployment_id: string;
  events: PushedEvent[];
  next_cursor: string;
  has_more: boolean;
}

const USER_HEADER = [
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
];
const user = (id: string, given: string, status = 'active'): string[] => [
  id,
  status,
  '2026-11-01T00:00:00Z',
  'true',
  'org-bay',
  'student',
  `${id}.name`,
  '',
  given,
  'Reyes',
  '',
  '',
  `${id}@bay.example`,
  '',
  '',
  '',
  '07',
  '',
];

/** A OneRoster 1.1 package: bulk (the school and `users`) or a delta of `users`. */
function rosterPackage(mode: 'bulk' | 'delta', users: string[][]): Promise<Buffer> {
  const files: Record<string, string[][]> = {
    'manifest.csv': [
      ['propertyName', 'value'],
      ['manifest.version', '1.0'],
      ['oneroster.version', '1.1'],
      ['file.orgs', mode === 'bulk' ? 'bulk' : 'absent'],
      ['file.users', mode],
    ],
    'users.csv': [USER_HEADER, ...users],
  };
  if (mode === 'bulk')
    files['orgs.csv'] = [
      ['sourcedId', 'status', 'dateLastModified', 'name', 'type', 'identifier', 'parentSourcedId'],
      ['org-bay', '', '', 'Bayside High', 'school', 'NSW-7001', ''],
    ];
  return rosterZip(files);
}

/**
 * The change feed pushed: a roster-events webhook registered through the alerts API receives the
 * deployment's feed from the OneRoster process, signed and sent by the dispatcher process, in
 * batches, in feed order; what arrives is exactly what the pull API answers for the same span,
 * a filtered webhook gets only what it asked for, and a receiver down for (a scaled) hour catches up.
 */
describe('roster change feed pushed to webhooks (separate processes)', () => {
  let partner: PartnerWorld;
  let identity: ServiceProcess;
  let oneroster: ServiceProcess;
  let alerts: ServiceProcess;
  let dispatcher: ServiceProcess;
  let receiver: WebhookReceiver;
  let creds: PartnerWorld['creds'];
  const secrets = new Map<string, string>();

  beforeAll(async () => {
    partner = await partnerWorld(SCOPES, { appName: 'Roster Mirror' });
    creds = partner.creds;
    const common = {
      DATABASE_URL: partner.db.url,
      REDIS_URL: process.env.REDIS_URL as string,
      QUEUE_PREFIX: `{e2e-roster-push-${process.pid}}`,
      TOKEN_ISSUER: 'http://identity.e2e',
    };
    identity = await startService('identity', { ...common, OPERATOR_CLIENT_SECRET: OPERATOR_SECRET });
    const jwks = `${identity.url}/.well-known/jwks.json`;
    [oneroster, alerts, dispatcher] = await Promise.all([
      startService('oneroster', {
        ...common,
        JWKS_URL: jwks,
        PUBLIC_BASE_URL: 'https://oneroster.e2e.example',
        ROSTER_EVENTS_PUSH_INTERVAL_MS: '100',
        ROSTER_EVENTS_PUSH_BATCH: String(BATCH),
      }),
      startService('alerts', { ...common, ...LOCAL_WEBHOOKS, JWKS_URL: jwks }),
      startService('webhook-dispatcher', {
        ...common,
        ...LOCAL_WEBHOOKS,
        WEBHOOK_RETRY_BASE_MS: String(RETRY_BASE_MS),
        WEBHOOK_RELAY_INTERVAL_MS: '500',
      }),
    ]);
    receiver = await new WebhookReceiver({ jwksUrl: jwks }).start();
    const users = Array.from({ length: 60 }, (_, i) => user(`u${i}`, `Student${i}`));
    await importPackage(await rosterPackage('bulk', users));
  });

  afterAll(async () => {
    await Promise.all([dispatcher?.stop(), alerts?.stop(), oneroster?.stop(), identity?.stop()]);
    await receiver?.stop();
    await partner?.stop();
  });

  const partnerToken = () => clientToken(identity.url, creds, { tenant_id: creds.tenantId });
  const operatorToken = () => clientToken(identity.url, { id: 'operator', secret: OPERATOR_SECRET });

  async function importPackage(zip: Buffer): Promise<void> {
    const operator = await operatorToken();
    const res = await fetch(`${oneroster.url}/admin/tenants/${creds.tenantId}/roster-imports`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${operator}`, 'Content-Type': 'application/zip' },
      body: zip,
    });
    if (res.status !== 201 && res.status !== 202)
      throw new Error(`import: ${res.status} ${(await res.text()).slice(0, 1_000)}`);
    const location = res.headers.get('location') as string;
    for (let i = 0; i < 300; i++) {
      const poll = await fetch(`${oneroster.url}${location}`, { headers: { Authorization: `Bearer ${operator}` } });
      const view = ((await poll.json()) as { import: { status: string; errors?: unknown } }).import;
      if (view.status !== 'running' && view.status !== 'queued') {
        expect(view).toMatchObject({ status: 'succeeded' });
        return;
      }
      await new Promise((r) => setTimeout(r, 100));
    }
    throw new Error('import did not finish');
  }

  async function register(path: string, filter?: Record<string, string[]>): Promise<string> {
    const res = await jsonCall('POST', `${alerts.url}/v2/alerts/webhook`, await partnerToken(), {
      endpoint: `${receiver.url}${path}`,
      kind: 'roster-events',
      ...(filter ? { filter } : {}),
    });
    expect(res).toMatchObject({ status: 200, body: { action: 'newWebhook', success: true } });
    secrets.set(res.body.webhook_id, res.body.secret);
    return res.body.webhook_id;
  }

  /** Waits until the push has opened a stream for the webhook (it starts where the feed stood at registration). */
  async function streamOpened(webhookId: string): Promise<void> {
    for (let i = 0; i < 200; i++) {
      const rows = await partner.ds.query('SELECT 1 FROM roster_event_streams WHERE webhook_id = $1', [webhookId]);
      if (rows.length > 0) return;
      await new Promise((r) => setTimeout(r, 100));
    }
    throw new Error(`no stream for ${webhookId}`);
  }

  /** Every event the pull API answers after `cursor`, page by page. */
  async function pull(cursor: string): Promise<PushedEvent[]> {
    const out: PushedEvent[] = [];
    const token = await partnerToken();
    for (let after = cursor; ;) {
      const res = await jsonCall(
        'GET',
        `${oneroster.url}/roster-events/v1/events?after=${encodeURIComponent(after)}&limit=1000`,
        token,
      );
      expect(res.status).toBe(200);
      out.push(...res.body.events);
      after = res.body.next_cursor;
      if (!res.body.has_more) return out;
    }
  }

  const head = async (): Promise<string> =>
    (await jsonCall('GET', `${oneroster.url}/roster-events/v1/events`, await partnerToken())).body.next_cursor;

  /** The batches delivered (answered 2xx) to `path`, once each, in the order they arrived. */
  function delivered(path: string): { d: ReceivedDelivery; batch: Batch }[] {
    const seen = new Set<string>();
    const out: { d: ReceivedDelivery; batch: Batch }[] = [];
    for (const d of receiver.deliveries) {
      if (d.path !== path || d.answered !== 200 || seen.has(String(d.claims.jti))) continue;
      seen.add(String(d.claims.jti));
      out.push({ d, batch: d.claims.event as Batch });
    }
    return out;
  }

  const eventsAt = (path: string): PushedEvent[] => delivered(path).flatMap((x) => x.batch.events);
  /** Where each event sits in the feed and what it is about. */
  const keys = (events: PushedEvent[]) => events.map((e) => `${e.id} ${e.type} ${e.sourcedId}`);
  /** The objects a receiver holds after applying `events` in order (each carries its object as it was when read). */
  function replayed(events: PushedEvent[]): Map<string, unknown> {
    const state = new Map<string, unknown>();
    for (const e of events)
      if (e.type.endsWith('.deleted')) state.delete(`${e.object}/${e.sourcedId}`);
      else state.set(`${e.object}/${e.sourcedId}`, e.data);
    return state;
  }
  /** Pushed and pulled alike: the same events in the same order, and the same state once applied. */
  function expectSameFeed(pushed: PushedEvent[], pulled: PushedEvent[]): void {
    expect(keys(pushed)).toEqual(keys(pulled));
    expect(replayed(pushed)).toEqual(replayed(pulled));
  }

  async function untilPushed(path: string, count: number, timeoutMs = 60_000): Promise<void> {
    await receiver.until(() => eventsAt(path).length >= count, timeoutMs);
  }

  it('pushes exactly the pulled events, in order, signed and batched; a filter narrows them', async () => {
    const all = await register('/all');
    const deletes = await register('/deleted-users', { objects: ['users'], types: ['deleted'] });
    await Promise.all([streamOpened(all), streamOpened(deletes)]);
    const c0 = await head();

    // A delta: 30 new users, 10 renamed, 5 deleted; then gradebook writes through the API.
    const delta = [
      ...Array.from({ length: 30 }, (_, i) => user(`n${i}`, `New${i}`)),
      ...Array.from({ length: 10 }, (_, i) => user(`u${i}`, `Renamed${i}`)),
      ...Array.from({ length: 5 }, (_, i) => user(`u${50 + i}`, `Student${50 + i}`, 'tobedeleted')),
    ];
    await importPackage(await rosterPackage('delta', delta));
    const token = await partnerToken();
    for (let i = 0; i < 3; i++) {
      const res = await jsonCall('PUT', `${oneroster.url}/ims/oneroster/v1p1/categories/cat-${i}`, token, {
        category: { sourcedId: `cat-${i}`, status: 'active', title: `Homework ${i}` },
      });
      expect([200, 201]).toContain(res.status);
    }

    const pulled = await pull(c0);
    expect(pulled.length).toBe(30 + 10 + 5 + 3);
    await untilPushed('/all', pulled.length);
    await untilPushed('/deleted-users', 5);

    const pushed = delivered('/all');
    // In feed order, without gaps or duplicates, exactly what the pull API answers.
    expectSameFeed(eventsAt('/all'), pulled);
    // Batched: no batch above the configured size, so 48 events took at least two deliveries.
    expect(pushed.length).toBeGreaterThanOrEqual(Math.ceil(pulled.length / BATCH));
    expect(Math.max(...pushed.map((p) => p.batch.events.length))).toBeLessThanOrEqual(BATCH);
    for (const { d, batch } of pushed) {
      // Signed: the JWT against the identity JWKS, and the Standard Webhooks signature with the webhook's secret.
      expect(d.verified).toBe(true);
      expect(d.claims).toMatchObject({ type: 'roster.events', aud: creds.appId, tenant_id: creds.tenantId });
      expect(() => new Webhook(secrets.get(all)!).verify(d.body, d.headers, { jsonParse: false })).not.toThrow();
      expect(batch).toMatchObject({ webhook_id: all, tenant_id: creds.tenantId });
    }
    // The last batch's cursor continues in the pull API where the push stopped.
    const last = pushed[pushed.length - 1].batch;
    expect(last.has_more).toBe(false);
    expect(await pull(last.next_cursor)).toEqual([]);

    expectSameFeed(
      eventsAt('/deleted-users'),
      pulled.filter((e) => e.type === 'users.deleted'),
    );
    expect(eventsAt('/deleted-users').map((e) => e.sourcedId)).toEqual(['u50', 'u51', 'u52', 'u53', 'u54']);
  });

  it('catches up after a receiver was down for an hour (scaled), still in order', async () => {
    const path = '/down-an-hour';
    const hook = await register(path);
    await streamOpened(hook);
    const c0 = await head();
    const downUntil = Date.now() + HOUR_SCALED_MS;
    receiver.responder = (d) => (d.path === path && Date.now() < downUntil ? { status: 503 } : { status: 200 });
    try {
      await importPackage(
        await rosterPackage(
          'delta',
          Array.from({ length: 40 }, (_, i) => user(`d${i}`, `Late${i}`)),
        ),
      );
      // The first batch is sent (and refused) before the next change: it holds the objects as they were.
      await receiver.until((all) => all.some((d) => d.path === path));
      await importPackage(
        await rosterPackage(
          'delta',
          Array.from({ length: 10 }, (_, i) => user(`d${i}`, `Later${i}`)),
        ),
      );
      const pulled = await pull(c0);
      expect(pulled.length).toBe(50);
      await untilPushed(path, pulled.length, HOUR_SCALED_MS + 60_000);
      // A batch is read when it is first sent: its objects as they were then, later changes in later batches.
      expectSameFeed(eventsAt(path), pulled);
      const refused = receiver.deliveries.filter((d) => d.path === path && d.answered === 503);
      expect(refused.length).toBeGreaterThan(5);
      // The first batch was retried (the same delivery, the same jti) until the receiver was back.
      const firstJti = String(refused[0].claims.jti);
      expect(receiver.byJti(firstJti).some((d) => d.answered === 200)).toBe(true);
    } finally {
      receiver.responder = () => ({ status: 200 });
    }
  });

  it('refuses bad registrations with 400 naming the field', async () => {
    const token = await partnerToken();
    const bad = [
      { kind: 'everything' },
      { kind: 'roster-events', filter: { objects: ['users', 'pets'] } },
      { kind: 'roster-events', filter: { types: ['renamed'] } },
      { kind: 'roster-events', filter: { objects: 'users' } },
      { kind: 'alerts', filter: { objects: ['users'] } },
      { kind: 'alerts' },
    ];
    for (const body of bad) {
      const res = await jsonCall('POST', `${alerts.url}/v2/alerts/webhook`, token, {
        endpoint: `${receiver.url}/bad`,
        ...body,
      });
      expect({ body, status: res.status }).toEqual({ body, status: 400 });
    }
    const pets = await jsonCall('POST', `${alerts.url}/v2/alerts/webhook`, token, {
      endpoint: `${receiver.url}/bad`,
      kind: 'roster-events',
      filter: { objects: ['users', 'pets'] },
    });
    expect(pets.body.message).toMatch(/pets/);
  });
});
