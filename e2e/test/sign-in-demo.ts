import { createRequire } from 'node:module';
import path from 'node:path';
import type { Page } from 'playwright-core';
import {
  createTestDatabase,
  listeningSocket,
  startServerProcess,
  type ListeningSocket,
  type ServerProcess,
  type TestDatabase,
} from '@edu/testing';
import { launchChromium } from '@edu/testing/browser';
import {
  CookieBrowser,
  FORM_HEADERS,
  nextStop,
  providerChoice,
  schoolSearch,
  type BrowserResponse,
} from '@edu/testing/sign-in';
import { buildServices, provisionDemo, startService, type ServiceProcess } from './processes';

const root = path.resolve(__dirname, '..', '..');
const { identitySignInEnv } = createRequire(__filename)(
  '../../tools/demo/sign-in/config',
) as typeof import('../../tools/demo/sign-in/config');

/**
 * A demo process of `npm start` (tools/demo/sign-in/*.js), started as npm start does on the socket
 * given (its URL is in its configuration and in others'), ready on /health.
 */
export class DemoProcess {
  private server?: ServerProcess;
  readonly url: string;

  constructor(
    readonly script: string,
    private readonly socket: ListeningSocket,
  ) {
    this.url = socket.url;
  }

  async start(env: Record<string, string>): Promise<this> {
    this.server = await startServerProcess({
      name: this.script,
      args: [path.join(root, 'tools/demo/sign-in', this.script)],
      cwd: root,
      env: { PATH: process.env.PATH ?? '', HOST: '127.0.0.1', ...env },
      socket: this.socket,
      readyPath: '/health',
      timeoutMs: 30_000,
    });
    return this;
  }

  async stop(): Promise<void> {
    await this.server?.stop();
  }
}

/** What every sign-in demo test starts, as `npm start` does: identity and the demo upstream provider. */
export interface DemoIdentity {
  db: TestDatabase;
  identity: ServiceProcess;
  upstream: DemoProcess;
  urls: { identity: string; upstream: string };
  /** Stops the processes and drops the database. */
  stop(): Promise<void>;
}

/**
 * The demo data set in a fresh database, identity as a process with its core providers pointing
 * at the demo upstream provider, and that provider; what started is stopped again when a step fails.
 */
export async function startDemoIdentity(): Promise<DemoIdentity> {
  buildServices();
  const started: Partial<DemoIdentity> = {};
  const stop = async () => {
    await started.upstream?.stop();
    await started.identity?.stop();
    await started.db?.drop();
  };
  try {
    const db = (started.db = await createTestDatabase());
    provisionDemo(db.url);
    const [identitySocket, upstreamSocket] = [await listeningSocket(), await listeningSocket()];
    const urls = { identity: identitySocket.url, upstream: upstreamSocket.url };
    const identity = (started.identity = await startService(
      'identity',
      {
        DATABASE_URL: db.url,
        TOKEN_ISSUER: urls.identity,
        PUBLIC_BASE_URL: urls.identity,
        ...identitySignInEnv(urls.upstream, {}),
      },
      { socket: identitySocket },
    ));
    const upstream = (started.upstream = await new DemoProcess('upstream.js', upstreamSocket).start({
      DEMO_UPSTREAM_URL: urls.upstream,
      IDENTITY_URL: urls.identity,
    }));
    return { db, identity, upstream, urls, stop };
  } catch (err) {
    await stop();
    throw err;
  }
}

/**
 * Runs `work` on a new page of headless Chromium with the Content-Security-Policy refusals the
 * page logs (a policy that blocks a step, e.g. a form's redirect, shows only in a real browser).
 */
export async function inChromium(work: (page: Page, cspRefusals: string[]) => Promise<void>): Promise<void> {
  const browser = await launchChromium();
  try {
    const page = await browser.newPage();
    const refused: string[] = [];
    page.on('console', (m) => void (/Content Security Policy/i.test(m.text()) && refused.push(m.text())));
    await work(page, refused);
  } finally {
    await browser.close();
  }
}

const unescape = (s: string) =>
  s
    .replace(/&amp;/g, '&')
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>');

/** The first match of `re` in a page (group 1, HTML-unescaped); fails naming what was missing. */
export function find(res: BrowserResponse, re: RegExp, what: string): string {
  const m = re.exec(res.body);
  if (!m) throw new Error(`no ${what} on ${res.url} (${res.status}):\n${res.body.slice(0, 2000)}`);
  return unescape(m[1]);
}

/** Follows the redirects after a response (a form post's answer) to the page they end on. */
export async function afterRedirects(b: CookieBrowser, res: BrowserResponse): Promise<BrowserResponse> {
  return res.location && res.status >= 300 && res.status < 400 ? b.follow(res.location) : res;
}

/**
 * A newcomer's trip as the banner tells it, in a cookie-keeping browser: the partner app's sign-in
 * link, the portal (search the school, pick it, pick the provider), the demo provider's login page
 * (pick the person), then wherever the redirects end (the app's page, or a refusal).
 */
export async function demoJourney(o: {
  partner: string;
  identity: string;
  upstream: string;
  school: string;
  tenantId: string;
  provider: string;
  sub: string;
  browser?: CookieBrowser;
}): Promise<{ res: BrowserResponse; browser: CookieBrowser }> {
  const b = o.browser ?? new CookieBrowser();
  const pick = await b.follow(`${o.partner}/login`);
  // The portal's forms carry a CSRF token: the search (GET) and the provider buttons (POST).
  const search = schoolSearch(pick.body, o.school);
  if (!search) throw new Error(`no school search form in: ${pick.body.slice(0, 500)}`);
  const found = await b.follow(`${o.identity}${search}`);
  const school = find(
    found,
    new RegExp(`href="(/signin/interaction/[^"]+\\?tenant=${o.tenantId})"`),
    `link to ${o.school}`,
  );
  const providers = await b.follow(`${o.identity}${school}`);
  const choice = providerChoice(providers.body, o.provider);
  if (!choice) throw new Error(`no ${o.provider} button in: ${providers.body.slice(0, 500)}`);
  const started = await b.request(`${o.identity}${choice.action}`, {
    method: 'POST',
    headers: FORM_HEADERS,
    body: choice.body,
  });
  const login = await b.follow(nextStop(started) ?? `${o.identity}${choice.action}`);
  const action = find(
    login,
    new RegExp(`action="(/interaction/[^"]+/login)"><input type="hidden" name="sub" value="${o.sub}"`),
    'demo person',
  );
  const posted = await b.request(`${o.upstream}${action}`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: `sub=${o.sub}`,
  });
  return { res: await afterRedirects(b, posted), browser: b };
}
