import type { Browser, BrowserContext, Page } from 'playwright-core';
import { closedContext, launchChromium, resolveToLoopback, screenshot } from '@edu/testing/browser';
import type { WorldUser } from '@edu/testing';
import { SchoolAdmin } from '@edu/testing/sign-in';
import type { TenantEntity } from '@edu/persistence';
import { subjectFor } from '@edu/sign-in';
import { brandedDomain, lionCityBrand } from './support/brands';
import { uri } from './support/harness';
import { RelyingPartyServer } from './support/relying-party-server';
import { activateSharing, putRoster } from './support/sharing-roster';
import { SignInHarness } from './support/sign-in-harness';

const LION = 'portal.lioncity.test';

/**
 * Data sharing at sign-in in Debian's Chromium: the partner app (openid-client) sends people to
 * the school's branded portal; a person the school does not share with the app meets the
 * refusal page in the school's brand (screenshot in test-artifacts/) and goes back to the app
 * with access_denied; a shared person signs in and the app's verified ID token has no e-mail.
 */
describe('sign-in under data sharing, in a browser', () => {
  let h: SignInHarness;
  let rp: RelyingPartyServer;
  let browser: Browser;
  let school: TenantEntity;
  let ada: WorldUser;
  let ben: WorldUser;
  const outside: string[] = [];
  const origin = () => `http://${LION}:${new URL(h.issuer).port}`;

  beforeAll(async () => {
    h = await SignInHarness.start({ upstreamLoginPage: true });
    const w = h.world();
    school = await w.tenant({ name: 'Lion City Primary' });
    const partner = await w.app({ type: 'developer', id: (await w.developer()).id }, 'Maths Garden');
    await w.deploy(partner.app.id, school.id, []);
    await w.constituency(school.id, 'staff', ['google']);
    ada = await w.user([school.id], { email: 'ada@lioncity.example', constituencies: ['staff'] });
    ben = await w.user([school.id], { email: 'ben@lioncity.example', constituencies: ['staff'] });
    await putRoster(h.ds, school.id, {
      classes: [
        { id: 'cls-maths', people: [{ id: 'usr-ada', email: ada.email, role: 'teacher' }] },
        { id: 'cls-art', people: [{ id: 'usr-ben', email: ben.email, role: 'teacher' }] },
      ],
    });
    await brandedDomain(h.ds, school.id, LION, lionCityBrand());
    const admin = await SchoolAdmin.start(w, h.issuer, school.id, {
      read: uri('id.tenant-core.readonly'),
      write: uri('id.tenant-core.write'),
    });
    await activateSharing((m, p, b) => admin.call(m, p, b), school.id, partner.app.id, {
      mode: 'classes',
      classes: ['cls-maths'],
      withhold: ['contact'],
    });
    rp = await RelyingPartyServer.start(h, partner);
    browser = await launchChromium([resolveToLoopback([LION])]);
  });

  afterAll(async () => {
    await browser?.close();
    await rp?.stop();
    await h?.stop();
  });

  const context = (): Promise<BrowserContext> =>
    closedContext(browser, [h.issuer, h.upstream.issuer, rp.url, origin()], outside);

  /** The app's sign-in link on the school's domain, the provider button, the upstream login page; where it ends. */
  async function signIn(ctx: BrowserContext, who: WorldUser): Promise<Page> {
    const page = await ctx.newPage();
    await page.goto(await rp.authorizationUrl({}, origin()), { waitUntil: 'load' });
    h.upstream.nextPerson = { sub: `g-${who.email}`, email: who.email, email_verified: true, name: who.name };
    await Promise.all([
      page.waitForURL(`${h.upstream.issuer}/interaction/**`),
      page.getByRole('button', { name: 'Sign in with Google' }).click(),
    ]);
    await page.getByLabel('E-mail address').fill(who.email);
    await Promise.all([
      page.waitForURL((url) => !url.href.startsWith(h.upstream.issuer)),
      page.getByRole('button', { name: 'Sign in' }).click(),
    ]);
    return page;
  }

  it('a person the school does not share with the app: the refusal page in the school’s brand, then back to the app', async () => {
    const ctx = await context();
    const page = await signIn(ctx, ben);
    await page.waitForURL(`${origin()}/signin/interaction/**`);
    expect(await page.locator('h1').textContent()).toBe('Not shared with this app');
    await expect(page.getByRole('alert').textContent()).resolves.toContain(
      'Lion City Primary does not share your information with Maths Garden',
    );
    // The school's brand: its logo, served by the identity service for its domain.
    expect(await page.locator('.logo img').getAttribute('src')).toContain(`/signin/brand/${LION}/logo/light`);
    await screenshot(page, 'sign-in-refused-not-shared-lioncity');
    await Promise.all([
      page.waitForURL(`${rp.redirectUri}?**`),
      page.getByRole('button', { name: 'Go back to Maths Garden' }).click(),
    ]);
    expect(new URL(page.url()).searchParams.get('error')).toBe('access_denied');
    const [row] = await h.ds.query(
      `SELECT outcome, reason, user_id FROM sign_in_events WHERE tenant_id = $1 AND reason = 'not_shared'`,
      [school.id],
    );
    expect(row).toEqual({ outcome: 'refused', reason: 'not_shared', user_id: ben.id });
    await ctx.close();
  });

  it('a shared person signs in; the app’s verified ID token has no e-mail (contact withheld)', async () => {
    const ctx = await context();
    const page = await signIn(ctx, ada);
    await page.waitForURL(`${rp.redirectUri}?**`);
    expect(await page.locator('h1').textContent()).toBe('Signed in');
    const claims = rp.signedIn.at(-1)!;
    expect(claims).toMatchObject({ iss: h.issuer, sub: subjectFor(school.id, ada.id), tenant_id: school.id });
    expect(claims).not.toHaveProperty('email');
    expect(claims).not.toHaveProperty('email_verified');
    await ctx.close();
  });

  it('loaded nothing from anywhere else', () => {
    expect(outside).toEqual([]);
  });
});
