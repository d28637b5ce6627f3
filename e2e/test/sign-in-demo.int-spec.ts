import { createRequire } from 'node:module';
import { listeningSocket } from '@edu/testing';
import { screenshot } from '@edu/testing/browser';
import { abortForm, FORM_HEADERS } from '@edu/testing/sign-in';
import {
  afterRedirects,
  DemoProcess,
  demoJourney,
  find,
  inChromium,
  startDemoIdentity,
  type DemoIdentity,
} from './sign-in-demo';

/**
 * The demo people's `sub` at Lion City Schools District (tenant 9b8e7d6c-…-cba987654302): their
 * subject at that tenant, the UUID v5 of `<tenant id>:<user id>` (apps/identity/src/README.md,
 * "Sign-in"), not their user ids 11111111-2222-4333-8444-555555555503 and …504.
 */
const SUB = {
  tanWeiLing: '7db7652d-0788-50d2-a1ea-c90f609fcaf3',
  arjun: '89b44577-5ac8-543a-8231-72658ebe7c10',
} as const;

// The sign-in demo of `npm start` (plain JS under tools/), with the types of its .d.ts files.
const load = createRequire(__filename);
const { demoSignInConfig } = load(
  '../../tools/demo/sign-in/config',
) as typeof import('../../tools/demo/sign-in/config');
const { ensureRedirectUri } = load(
  '../../tools/demo/sign-in/redirect',
) as typeof import('../../tools/demo/sign-in/redirect');
const { pointSchoolProviderAt } = load(
  '../../tools/demo/sign-in/school-provider',
) as typeof import('../../tools/demo/sign-in/school-provider');
const { connectDemoLms } = load(
  '../../tools/demo/sign-in/lms-tool',
) as typeof import('../../tools/demo/sign-in/lms-tool');
const OPERATOR = { id: 'operator', secret: 'demo-operator-secret-not-for-production' };

/**
 * The sign-in demo of `npm start` over HTTP: the demo data set, identity as a process with its
 * core providers pointing at the demo upstream provider, the demo upstream and the demo partner
 * app as the processes npm start runs, and a newcomer's trip through them in a cookie-keeping
 * browser, from the partner app's sign-in link back to the app showing the verified claims.
 */
describe('sign-in demo: the partner app signs a demo person in through the portal and the demo provider', () => {
  const demo = demoSignInConfig();
  const tanWeiLing = demo.people.find((p) => p.email.startsWith('wei.ling.tan'))!;
  const arjun = demo.people.find((p) => p.email.startsWith('arjun'))!;
  let core: DemoIdentity;
  let partner: DemoProcess;
  let lms: DemoProcess;
  let lmsPage: string;
  let trip: Omit<Parameters<typeof demoJourney>[0], 'sub' | 'provider'>;

  beforeAll(async () => {
    core = await startDemoIdentity();
    const [partnerSocket, lmsSocket] = [await listeningSocket(), await listeningSocket()];
    const urls = { ...core.urls, partner: partnerSocket.url, lms: lmsSocket.url };
    const identity = core.identity;
    partner = await new DemoProcess('partner-app.js', partnerSocket).start({
      DEMO_PARTNER_URL: urls.partner,
      IDENTITY_URL: urls.identity,
    });
    lms = await new DemoProcess('lms.js', lmsSocket).start({ DEMO_LMS_URL: urls.lms });
    // As npm start does when DEMO_PARTNER_PORT moved the app's redirect URI.
    expect(
      await ensureRedirectUri({
        identityUrl: identity.url,
        appId: demo.app.id,
        redirectUri: `${urls.partner}/auth/callback`,
        operator: OPERATOR,
      }),
    ).toBe('added');
    expect(
      await ensureRedirectUri({
        identityUrl: identity.url,
        appId: demo.app.id,
        redirectUri: `${urls.partner}/auth/callback`,
        operator: OPERATOR,
      }),
    ).toBe('kept');
    // As npm start does: the school's own sign-in (demo data URLs that do not exist) runs at the demo provider.
    expect(await pointSchoolProviderAt({ identityUrl: identity.url, upstreamUrl: urls.upstream, config: demo })).toBe(
      'moved',
    );
    expect(await pointSchoolProviderAt({ identityUrl: identity.url, upstreamUrl: urls.upstream, config: demo })).toBe(
      'kept',
    );
    // As npm start does: the demo LMS connected to the school (once: a second run keeps the provider).
    const connected = await connectDemoLms({
      identityUrl: urls.identity,
      lmsUrl: urls.lms,
      partnerUrl: urls.partner,
      config: demo,
    });
    expect(
      await connectDemoLms({ identityUrl: urls.identity, lmsUrl: urls.lms, partnerUrl: urls.partner, config: demo }),
    ).toEqual(connected);
    lmsPage = connected.launchPage;
    trip = {
      partner: urls.partner,
      identity: urls.identity,
      upstream: urls.upstream,
      school: 'Lion City',
      tenantId: demo.tenant.id,
    };
  }, 180_000);

  afterAll(async () => {
    await Promise.all([partner?.stop(), lms?.stop()]);
    await core?.stop();
  });

  it('lands back in the app showing the verified claims, tenant and constituencies included; signing out returns to the app', async () => {
    const { res, browser } = await demoJourney({ ...trip, provider: 'microsoft', sub: tanWeiLing.sub });
    expect({ url: res.url, status: res.status }).toEqual({ url: `${trip.partner}/signed-in`, status: 200 });
    const claims = JSON.parse(find(res, /<pre id="claims">([^<]+)<\/pre>/, 'claims')) as Record<string, unknown>;
    expect(claims).toMatchObject({
      iss: trip.identity,
      aud: demo.app.clientId,
      sub: SUB.tanWeiLing,
      email: tanWeiLing.email,
      email_verified: true,
      name: 'Tan Wei Ling',
      tenant_id: demo.tenant.id,
      tenant_name: demo.tenant.name,
      constituencies: ['staff'],
    });
    expect(res.body).toContain(`Signed in to ${demo.app.name}`);

    const confirm = await browser.follow(find(res, /href="([^"]+\/oidc\/session\/end[^"]*)"/, 'sign-out link'));
    const xsrf = find(confirm, /name="xsrf" value="([^"]+)"/, 'logout form');
    const done = await browser.request(`${trip.identity}/oidc/session/end/confirm`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: `xsrf=${xsrf}&logout=yes`,
    });
    expect((await afterRedirects(browser, done)).url).toBe(`${trip.partner}/`);
  });

  it('in Chromium, as the banner tells a newcomer: find the school, press Microsoft, pick the person, see the claims, sign out; no policy blocks a step', async () => {
    await inChromium(async (page, refused) => {
      await page.goto(`${trip.partner}/login`);
      await page.getByRole('searchbox').fill('Lion');
      await page.keyboard.press('Enter');
      await page.getByRole('link', { name: demo.tenant.name }).click();
      await page.getByRole('button', { name: 'Sign in with Microsoft' }).click();
      await page.getByRole('button', { name: `Sign in as ${tanWeiLing.name}` }).click();
      await page.waitForURL(`${trip.partner}/signed-in`);
      expect(JSON.parse((await page.locator('#claims').textContent()) ?? '{}')).toMatchObject({
        sub: SUB.tanWeiLing,
        tenant_id: demo.tenant.id,
        constituencies: ['staff'],
      });
      await screenshot(page, 'sign-in-demo-claims');
      await page.getByRole('link', { name: 'Sign out' }).click();
      await page.getByRole('button', { name: 'Yes, sign me out' }).click();
      await page.waitForURL(`${trip.partner}/`);
      expect(refused).toEqual([]);
    });
  });

  it('in Chromium, as the banner tells: a student opens the activity in the demo LMS and lands in the app signed in, without a sign-in page', async () => {
    await inChromium(async (page, refused) => {
      const seen: string[] = [];
      page.on('framenavigated', (f) => void (f === page.mainFrame() && seen.push(new URL(f.url()).pathname)));
      await page.goto(lmsPage);
      await page.getByRole('link', { name: 'Open as Arjun Menon (Learner)' }).click();
      await page.getByRole('button', { name: 'Continue to Wellbeing check-in' }).click();
      await page.waitForURL(`${trip.partner}/signed-in`);
      expect(JSON.parse((await page.locator('#claims').textContent()) ?? '{}')).toMatchObject({
        sub: SUB.arjun,
        tenant_id: demo.tenant.id,
        constituencies: ['student'],
      });
      await screenshot(page, 'sign-in-lti-launch-signed-in');
      // No school search, no provider button: the portal never showed a page.
      expect(seen.filter((p) => p.startsWith('/signin/interaction'))).toEqual([]);
      expect(refused).toEqual([]);
    });
  });

  it('a student signs in with the school’s own provider (a public client at the demo provider, mapped by the identifier on the roster)', async () => {
    const { res } = await demoJourney({ ...trip, provider: demo.schoolProvider.id, sub: arjun.sub });
    expect({ url: res.url, status: res.status }).toEqual({ url: `${trip.partner}/signed-in`, status: 200 });
    const claims = JSON.parse(find(res, /<pre id="claims">([^<]+)<\/pre>/, 'claims')) as Record<string, unknown>;
    expect(claims).toMatchObject({
      sub: SUB.arjun,
      email: arjun.email,
      tenant_id: demo.tenant.id,
      constituencies: ['student'],
    });
  });

  it('a student (whose group signs in only with the school’s own provider) gets the portal’s refusal with Microsoft, and the app hears access_denied', async () => {
    const { res, browser } = await demoJourney({ ...trip, provider: 'microsoft', sub: arjun.sub });
    expect(res.status).toBe(403);
    expect(res.body).toContain('does not let your group sign in with Microsoft');
    const way = abortForm(res.body);
    if (!way) throw new Error(`no way back on the refusal page:\n${res.body.slice(0, 1000)}`);
    const back = await afterRedirects(
      browser,
      await browser.request(`${trip.identity}${way.action}`, { method: 'POST', headers: FORM_HEADERS, body: way.body }),
    );
    expect({ url: back.url.split('?')[0], status: back.status }).toEqual({
      url: `${trip.partner}/auth/callback`,
      status: 403,
    });
    expect(back.body).toContain('access_denied');
  });
});
