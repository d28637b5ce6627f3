import { availableParallelism } from 'node:os';
import { createTestDatabase, listeningSocket, type ListeningSocket, type TestDatabase } from '@edu/testing';
import { burnCpu } from './cpu-burners';
import {
  alertsFirstRequest,
  DEMO,
  firstCall,
  heldRequests,
  identityFirstRequests,
  inFlight,
  oidcAuthUrl,
  onerosterFirstRequests,
  tokenRequest,
  type FirstAnswer,
} from './first-requests';
import { queuedRequest } from './http';
import { buildServices, provisionDemo, startService, type ServiceProcess } from './processes';

/** Rate limits and load shedding as a fresh `npm start` runs them: the code's defaults. */
const TRAFFIC_CONTROL_DEFAULTS = {
  RATE_LIMIT_ENABLED: 'true',
  SHED_EVENT_LOOP_LAG_MS: '500',
  SHED_DB_POOL_WAIT_MS: '2000',
};

/** What each group's first request answers on the demo data (redirects are not followed). */
const EXPECTED: Record<string, number> = {
  'sign-in SAML': 303,
  'sign-in OIDC': 303,
  'sign-in LTI': 303,
  portal: 200,
  token: 200,
  'token (demo-roster-sync)': 200,
  'token (demo-wellbeing-pulse)': 200,
  reads: 200,
  writes: 201,
  alerts: 200,
};

/** A partner's token for the later requests; its answer is one of the first requests too. */
async function partnerToken(identity: string, client: { id: string; secret: string }) {
  const answer = await firstCall(
    `token (${client.id})`,
    `${identity}/oauth/token`,
    tokenRequest(client, DEMO.district),
  );
  const token = answer.status === 200 ? (JSON.parse(answer.text) as { access_token: string }).access_token : undefined;
  return { answer, token };
}

/** The answers of every branch, once all of them ended (so no process starts after the test gave up). */
async function settled(branches: Promise<FirstAnswer[]>[]): Promise<FirstAnswer[]> {
  return (await Promise.allSettled(branches)).flatMap((b) => {
    if (b.status === 'rejected') throw b.reason;
    return b.value;
  });
}

/**
 * A fresh start on a busy machine (every core but one spinning, the services starting one after
 * another as `npm start` does): the moment each service is ready, one request of every route
 * group it serves, sent at once. None may be refused as overloaded: an idle service whose event
 * loop lagged while it and its neighbours booted is not under load. And a service that is under
 * load still sheds, sign-in pages as the portal's page.
 */
describe('first requests after a fresh start on a busy machine', () => {
  let db: TestDatabase;
  let identity: ServiceProcess;
  const services: ServiceProcess[] = [];
  let burners: { stop(): Promise<void> } | undefined;

  beforeAll(async () => {
    buildServices();
    db = await createTestDatabase();
    provisionDemo(db.url);
  }, 120_000);

  afterAll(async () => {
    await burners?.stop();
    await Promise.all(services.map((s) => s.stop()));
    await db?.drop();
  });

  const start = async (name: string, env: Record<string, string>, socket?: ListeningSocket) => {
    const s = await startService(name, { ...TRAFFIC_CONTROL_DEFAULTS, ...env }, { socket });
    services.push(s);
    return s;
  };

  it('answers the first request of every route group, sent the moment each service is ready, never 503', async () => {
    burners = burnCpu(Math.max(1, availableParallelism() - 1));
    const socket = await listeningSocket();
    const issuer = socket.url;
    const common = { DATABASE_URL: db.url, REDIS_URL: process.env.REDIS_URL as string, QUEUE_PREFIX: '{first}' };
    identity = await start('identity', { ...common, TOKEN_ISSUER: issuer, PUBLIC_BASE_URL: issuer }, socket);

    const verifier = { ...common, TOKEN_ISSUER: issuer, JWKS_URL: `${issuer}/.well-known/jwks.json` };
    const signIns = identityFirstRequests(issuer);
    const tokens = signIns.then(() =>
      Promise.all([partnerToken(issuer, DEMO.rosterSync), partnerToken(issuer, DEMO.pulse)]),
    );
    const answers = await settled([
      signIns,
      tokens.then((t) => t.map((x) => x.answer)),
      start('oneroster', { ...verifier, PUBLIC_BASE_URL: 'https://roster.first.example' }).then(async (s) => {
        const { token } = (await tokens)[0];
        return token ? onerosterFirstRequests(s.url, token) : [];
      }),
      start('alerts', verifier).then(async (s) => {
        const { token } = (await tokens)[1];
        return token ? [await alertsFirstRequest(s.url, token)] : [];
      }),
    ]);
    await burners.stop();
    process.stdout.write(`first requests: ${answers.map((a) => `${a.group} ${a.status} ${a.ms} ms`).join(', ')}\n`);
    expect(answers.filter((a) => a.status === 503)).toEqual([]);
    expect(Object.fromEntries(answers.map((a) => [a.group, a.status]))).toEqual(EXPECTED);
  }, 180_000);

  it('still sheds when it is under load: requests queued behind a stall while 8 others are in flight get 503, a sign-in page as the portal’s page, the token endpoint in JSON', async () => {
    const slow = heldRequests(identity.url, 8);
    try {
      const deadline = Date.now() + 10_000;
      while ((await inFlight(identity.url)) < 8 && Date.now() < deadline);
      identity.child.kill('SIGSTOP');
      const token = tokenRequest(DEMO.pulse, DEMO.district);
      const queued = Array.from({ length: 12 }, (_, i) =>
        i % 2
          ? {
              group: 'token',
              ...queuedRequest(`${identity.url}/oauth/token`, {
                method: 'POST',
                headers: token.headers as Record<string, string>,
                body: String(token.body),
              }),
            }
          : { group: 'sign-in OIDC', ...queuedRequest(oidcAuthUrl(identity.url)) },
      );
      // The stall (the process stopped for 2.5 s), until every request is queued behind it at least.
      await Promise.all([new Promise((r) => setTimeout(r, 2_500)), ...queued.map((q) => q.written)]);
      identity.child.kill('SIGCONT');
      const answers = await Promise.all(
        queued.map(async ({ group, answer }) => {
          const a = await answer;
          const [retryAfter, contentType] = [a.headers.get('retry-after'), a.headers.get('content-type') ?? ''];
          return { group, status: a.status, retryAfter, contentType, text: a.text };
        }),
      );
      expect(answers.map((a) => [a.group, a.status, a.retryAfter])).toEqual(answers.map((a) => [a.group, 503, '2']));
      for (const a of answers.filter((x) => x.group === 'token'))
        expect(JSON.parse(a.text)).toMatchObject({ error: 'temporarily_unavailable' });
      for (const a of answers.filter((x) => x.group !== 'token')) {
        expect(a.contentType).toMatch(/^text\/html/);
        expect(a.text).toContain('Sign-in is busy right now. Wait 2 seconds and try again.');
      }
    } finally {
      slow.release();
    }
    const metrics = await (await fetch(`${identity.url}/metrics`)).text();
    const counted = [...metrics.matchAll(/^http_requests_shed_total\{.*reason="event_loop_lag"\} (\d+)$/gm)];
    expect(counted.reduce((n, m) => n + Number(m[1]), 0)).toBe(12);
  }, 60_000);
});
