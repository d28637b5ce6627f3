import { brandedDomain, lionCityBrand, WOFF_FONT } from './support/brands';
import {
  abortForm,
  CookieBrowser,
  FORM_HEADERS,
  nextStop,
  providerChoice,
  schoolSearch,
  type BrowserResponse,
} from '@edu/testing/sign-in';
import { RP_REDIRECT, SignInHarness, type RelyingParty } from './support/sign-in-harness';
import { SignInLog } from './support/sign-in-log';

const DOMAIN = 'portal.lioncity.example';

/** The portal's own guards over HTTP: CSRF on every form, brand assets with exact types, refusals on record. */
describe('sign-in portal: forms, brand assets and refusals', () => {
  let h: SignInHarness;
  let rp: RelyingParty;
  let tenantId: string;
  const asset = (path: string) => fetch(`${h.issuer}/signin/brand/${DOMAIN}/${path}`);

  beforeAll(async () => {
    h = await SignInHarness.start();
    const w = h.world();
    const tenant = await w.tenant({ name: 'Lion City Primary' });
    tenantId = tenant.id;
    const partner = await w.app({ type: 'developer', id: (await w.developer()).id }, 'Reading Buddy');
    await w.deploy(partner.app.id, tenant.id, []);
    await w.constituency(tenant.id, 'staff', ['google']);
    await brandedDomain(h.ds, tenant.id, DOMAIN, lionCityBrand());
    rp = await h.relyingParty(partner);
  });

  afterAll(async () => {
    await h?.stop();
  });

  /** A browser on the providers page of a fresh sign-in. */
  async function onProvidersPage(): Promise<{ browser: CookieBrowser; page: BrowserResponse }> {
    const { url } = await h.authorizationUrl(rp, { tenant: tenantId });
    const browser = new CookieBrowser();
    const page = await browser.follow(url.href);
    expect(page.status).toBe(200);
    return { browser, page };
  }

  const post = (b: CookieBrowser, action: string, body: string, headers: Record<string, string> = {}) =>
    b.request(`${h.issuer}${action}`, { method: 'POST', headers: { ...FORM_HEADERS, ...headers }, body });

  describe('CSRF', () => {
    it('refuses a provider choice without the token, with another sign-in’s token, or from another site', async () => {
      const { browser, page } = await onProvidersPage();
      const choice = providerChoice(page.body, 'google')!;
      const other = providerChoice((await onProvidersPage()).page.body, 'google')!;
      const attempts: [string, string, Record<string, string>?][] = [
        ['no token', choice.body.replace(/csrf=[^&]+&?/, '')],
        ['another sign-in’s token', `${other.body.match(/csrf=[^&]+/)![0]}&tenant=${tenantId}&provider=google`],
        ['another site', choice.body, { origin: 'https://evil.example' }],
        ['another site, origin hidden', choice.body, { origin: 'null', 'sec-fetch-site': 'cross-site' }],
      ];
      for (const [name, body, headers] of attempts) {
        const res = await post(browser, choice.action, body, headers);
        expect({ name, status: res.status, location: res.location }).toEqual({
          name,
          status: 403,
          location: undefined,
        });
        expect(res.body).toContain('This form was not sent from your sign-in page');
      }
      expect(h.upstream.tokenRequests).toBe(0);
      // The right token from this page still works: off to the provider, bound to this browser.
      const ok = await post(browser, choice.action, choice.body, { origin: h.issuer });
      expect(ok.status).toBe(303);
      expect(nextStop(ok)).toMatch(new RegExp(`^${h.upstream.issuer}/auth\\?`));
      expect(ok.headers.getSetCookie().join()).toMatch(/^signin_upstream=.*HttpOnly.*SameSite=Lax/);
    });

    it('takes “go back to the app” only with the token (then access_denied at the app)', async () => {
      const { browser, page } = await onProvidersPage();
      const back = abortForm(page.body)!;
      expect((await post(browser, back.action, '')).status).toBe(403);
      const res = await browser.follow(nextStop(await post(browser, back.action, back.body))!, (next) =>
        next.startsWith(RP_REDIRECT),
      );
      expect(res.location).toMatch(new RegExp(`^${RP_REDIRECT}\\?error=access_denied`));
    });

    it('checks the token of the school search (a GET form)', async () => {
      const { url } = await h.authorizationUrl(rp);
      const browser = new CookieBrowser();
      const page = await browser.follow(url.href);
      const search = schoolSearch(page.body, 'Lion')!;
      const found = await browser.get(`${h.issuer}${search}`);
      expect(found.status).toBe(200);
      expect(found.body).toContain('Lion City Primary');
      const forged = await browser.get(`${h.issuer}${search.replace(/csrf=[^&]+&/, '')}`);
      expect(forged.status).toBe(403);
      expect(forged.body).not.toContain('Lion City Primary');
    });
  });

  describe('brand assets', () => {
    it('serves the brand stylesheet as text/css, with only our own asset URLs', async () => {
      const res = await asset('brand.css');
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toBe('text/css; charset=utf-8');
      expect(res.headers.get('x-content-type-options')).toBe('nosniff');
      const css = await res.text();
      expect(css).toContain('--primary: #1d4ed8;');
      expect([...css.matchAll(/url\("([^"]+)"\)/g)].map((m) => m[1].replace(/\?v=\d+$/, '')).sort()).toEqual([
        `/signin/brand/${DOMAIN}/background`,
        `/signin/brand/${DOMAIN}/background`,
        `/signin/brand/${DOMAIN}/fonts/serif/0`,
      ]);
    });

    it('serves logos, background and the uploaded font as files with their exact type, never sniffed', async () => {
      for (const [path, type] of [
        ['logo/light', 'image/svg+xml'],
        ['logo/dark', 'image/svg+xml'],
        ['background', 'image/svg+xml'],
        ['fonts/serif/0', 'font/woff'],
      ]) {
        const res = await asset(path);
        expect({
          path,
          status: res.status,
          type: res.headers.get('content-type')?.split(';')[0],
          nosniff: res.headers.get('x-content-type-options'),
        }).toEqual({ path, status: 200, type, nosniff: 'nosniff' });
        if (type.startsWith('image/svg')) expect(res.headers.get('content-security-policy')).toContain('sandbox');
      }
      expect(Buffer.from(await (await asset('fonts/serif/0')).arrayBuffer()).equals(WOFF_FONT)).toBe(true);
    });

    it('answers 404 for what is not an uploaded asset: library fonts, other slots, unknown domains', async () => {
      for (const path of ['fonts/sans/0', 'fonts/serif/1', 'fonts/mono/0', 'fonts/serif/x', 'logo/sepia'])
        expect({ path, status: (await asset(path)).status }).toEqual({ path, status: 404 });
      expect((await fetch(`${h.issuer}/signin/brand/nowhere.example/brand.css`)).status).toBe(404);
    });

    it('does not serve a stored asset that breaks the rules (written around the API)', async () => {
      const bad = lionCityBrand();
      bad.logo.light = '<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>';
      bad.typefaces.serif[0].file = Buffer.from('MZ not a font').toString('base64');
      bad.background.image = Buffer.from('GIF89a, not a PNG').toString('base64');
      await h.ds.query(`UPDATE vanity_domains SET brand_configuration = $2 WHERE domain = $1`, [
        DOMAIN,
        JSON.stringify(bad),
      ]);
      try {
        for (const path of ['logo/light', 'fonts/serif/0', 'background'])
          expect({ path, status: (await asset(path)).status }).toEqual({ path, status: 404 });
        expect((await asset('logo/dark')).status).toBe(200);
      } finally {
        await h.ds.query(`UPDATE vanity_domains SET brand_configuration = $2 WHERE domain = $1`, [
          DOMAIN,
          JSON.stringify(lionCityBrand()),
        ]);
      }
    });
  });

  describe('refusals before the school is known', () => {
    let log: SignInLog;
    beforeAll(() => (log = new SignInLog()));
    afterAll(() => log.restore());
    beforeEach(() => log.clear());

    /** The one refusal line the service log got for `reason`, and that no tenant's log has it. */
    async function loggedOnce(reason: string) {
      expect(log.refusals().map((l) => l.reason)).toEqual([reason]);
      const [{ n }] = await h.ds.query(`SELECT count(*)::int AS n FROM sign_in_events WHERE reason = $1`, [reason]);
      expect(n).toBe(0);
      return log.refusals()[0];
    }

    /** A browser on a fresh sign-in's page (the school search, without a tenant), and that page's address. */
    async function onSignInPage(params: Record<string, string> = {}) {
      const { url } = await h.authorizationUrl(rp, params);
      const browser = new CookieBrowser();
      const page = await browser.follow(url.href);
      expect(page.status).toBe(200);
      return { browser, page, uid: new URL(page.url).pathname.split('/').pop()! };
    }

    it('logs a sign-in page opened in a browser without its interaction (interaction_not_found)', async () => {
      const { page } = await onSignInPage();
      log.clear();
      const res = await new CookieBrowser().get(page.url);
      expect(res.status).toBe(400);
      expect(res.body).toContain('This sign-in expired or was started in another browser');
      expect(await loggedOnce('interaction_not_found')).toMatchObject({
        protocol: 'oidc',
        outcome: 'refused',
        tenant: undefined,
        app: undefined,
        detail: expect.stringContaining('no live interaction'),
      });
    });

    it('logs another sign-in’s page opened in this browser (interaction_mismatch)', async () => {
      const mine = await onSignInPage();
      const theirs = await onSignInPage();
      log.clear();
      const res = await mine.browser.get(theirs.page.url);
      expect(res.status).toBe(400);
      expect(res.body).toContain('This sign-in link does not belong to this browser');
      expect(await loggedOnce('interaction_mismatch')).toMatchObject({
        protocol: 'oidc',
        tenant: undefined,
        app: undefined,
        detail: `the browser's interaction is ${mine.uid}, not ${theirs.uid}`,
      });
    });

    it('logs a sign-in for an app whose registration went away meanwhile (unknown_client)', async () => {
      const w = h.world();
      const leaving = await w.app({ type: 'developer', id: (await w.developer()).id }, 'Leaving App');
      await w.deploy(leaving.app.id, tenantId, []);
      const { url } = await h.authorizationUrl(await h.relyingParty(leaving), { tenant: tenantId });
      const browser = new CookieBrowser();
      const toPortal = await browser.follow(url.href, (next) => next.includes('/signin/interaction/'));
      await h.ds.query(`UPDATE apps SET client_id = client_id || '-gone' WHERE id = $1`, [leaving.app.id]);
      log.clear();
      const res = await browser.get(toPortal.location!);
      expect(res.status).toBe(400);
      expect(res.body).toContain('The app that sent you here is not registered');
      // The authorization named a school, but the app is unknown: no tenant is taken from it.
      expect(await loggedOnce('unknown_client')).toMatchObject({
        protocol: 'oidc',
        tenant: undefined,
        app: undefined,
        detail: `no app has client_id ${leaving.clientId}`,
      });
    });

    it('logs a provider chosen with no school (no_tenant), with the app', async () => {
      const { browser, page, uid } = await onSignInPage();
      const csrf = new URL(schoolSearch(page.body, 'x')!, h.issuer).searchParams.get('csrf')!;
      log.clear();
      const res = await post(
        browser,
        `/signin/interaction/${uid}/start`,
        new URLSearchParams({ csrf, provider: 'google' }).toString(),
        {
          origin: h.issuer,
        },
      );
      expect(res.status).toBe(400);
      expect(res.body).toContain('Choose your school first.');
      expect(await loggedOnce('no_tenant')).toMatchObject({ protocol: 'oidc', tenant: undefined, app: rp.appId });
    });

    it('logs a provider’s answer with a state that is unknown or missing (unknown_state), never the state', async () => {
      for (const [query, detail] of [
        ['state=never-issued&code=abc', 'state unknown, expired or already used'],
        ['code=abc', 'no state in the answer'],
      ]) {
        log.clear();
        const res = await fetch(`${h.issuer}/signin/callback?${query}`, { redirect: 'manual' });
        expect({ query, status: res.status }).toEqual({ query, status: 400 });
        expect(await res.text()).toContain('This sign-in is unknown or was already used');
        const line = await loggedOnce('unknown_state');
        expect(line).toMatchObject({ protocol: 'oidc', tenant: undefined, app: undefined, detail });
        expect(JSON.stringify(line)).not.toContain('never-issued');
      }
    });
  });
});
