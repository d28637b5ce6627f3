import type { Browser, BrowserContext, Page } from 'playwright-core';
import { closedContext, launchChromium, resolveToLoopback, screenshot } from '@edu/testing/browser';
import type { TenantEntity } from '@edu/persistence';
import { contrastRatio } from '@edu/sign-in';
import { brandedDomain, harbourBrand, lionCityBrand } from './support/brands';
import { RelyingPartyServer } from './support/relying-party-server';
import { SignInHarness } from './support/sign-in-harness';
import { subjectFor } from '@edu/sign-in';

const LION = 'portal.lioncity.test';
const HARBOUR = 'signin.harbour.test';
/** A district's domain serving two of its schools. */
const DISTRICT = 'schools.district.test';
/** A sibling of Lion City's domain (same site, another origin): where a CSRF attempt comes from. */
const SIBLING = 'evil.lioncity.test';

/* The few browser globals the page functions use (the project compiles without the DOM library). */
interface Css {
  color: string;
  fontFamily: string;
  fontWeight: string;
  textTransform: string;
  backgroundColor: string;
  backgroundImage: string;
  borderTopColor: string;
  justifyContent: string;
  outlineStyle: string;
  outlineColor: string;
}
interface El {
  textContent: string | null;
  currentSrc?: string;
}
declare const document: {
  title: string;
  documentElement: { lang: string };
  activeElement: unknown;
  body: El;
  fonts: { ready: Promise<unknown>; check(font: string): boolean };
  querySelector(sel: string): El | null;
};
declare function getComputedStyle(el: unknown): Css;

/** `rgb(r, g, b)` as #rrggbb. */
const hex = (rgb: string) =>
  `#${(rgb.match(/\d+/g) ?? [])
    .slice(0, 3)
    .map((n) => Number(n).toString(16).padStart(2, '0'))
    .join('')}`;

/** What the tests read of a rendered portal page. */
interface Look {
  title: string;
  heading: { text: string; color: string; font: string; weight: string; transform: string };
  card: { background: string; accent: string };
  body: { image: string; color: string; justify: string };
  logo: string;
  lang: string;
}

async function look(page: Page): Promise<Look> {
  await page.evaluate(() => document.fonts.ready);
  return page.evaluate(() => {
    const css = (sel: string) => getComputedStyle(document.querySelector(sel));
    const h1 = css('h1');
    return {
      title: document.title,
      heading: {
        text: document.querySelector('h1')?.textContent ?? '',
        color: h1.color,
        font: h1.fontFamily,
        weight: h1.fontWeight,
        transform: h1.textTransform,
      },
      card: { background: css('main').backgroundColor, accent: css('main').borderTopColor },
      body: {
        image: css('body').backgroundImage,
        color: css('body').backgroundColor,
        justify: css('body').justifyContent,
      },
      logo: document.querySelector('.logo img')?.currentSrc ?? '',
      lang: document.documentElement.lang,
    };
  });
}

/** The contrast of an element's text against the sign-in card it sits on. */
async function textContrast(page: Page, selector: string): Promise<number> {
  const [fg, bg] = await page.evaluate(
    (sel) => [
      getComputedStyle(document.querySelector(sel)).color,
      getComputedStyle(document.querySelector('main')).backgroundColor,
    ],
    selector,
  );
  return contrastRatio(hex(fg), hex(bg));
}

/**
 * The whole sign-in in Debian's Chromium: a partner app (openid-client) sends the person to the
 * portal on a school's vanity domain, which wears the school's brand; the upstream provider's
 * login page; back to the app, which verifies the ID token against our discovery. Screenshots of
 * two brands, light and dark, in test-artifacts/.
 */
describe('sign-in in a browser: branded portal on vanity domains', () => {
  let h: SignInHarness;
  let rp: RelyingPartyServer;
  let browser: Browser;
  let lion: TenantEntity;
  let harbour: TenantEntity;
  let ada: { id: string; email: string; name: string };
  const outside: string[] = [];
  const origin = (domain: string) => `http://${domain}:${new URL(h.issuer).port}`;

  beforeAll(async () => {
    h = await SignInHarness.start({ upstreamLoginPage: true });
    const w = h.world();
    lion = await w.tenant({ name: 'Lion City Primary' });
    harbour = await w.tenant({ name: 'Harbour High' });
    const partner = await w.app({ type: 'developer', id: (await w.developer()).id }, 'Reading Buddy');
    for (const t of [lion, harbour]) {
      await w.deploy(partner.app.id, t.id, []);
      await w.constituency(t.id, 'staff', ['google']);
    }
    ada = await w.user([lion.id], { email: 'ada@lioncity.example', constituencies: ['staff'] });
    await brandedDomain(h.ds, lion.id, LION, lionCityBrand());
    await brandedDomain(h.ds, harbour.id, HARBOUR, harbourBrand());
    await brandedDomain(h.ds, lion.id, DISTRICT, { ...lionCityBrand(), portal_name: 'District Schools' }, [
      lion.id,
      harbour.id,
    ]);
    // A school where the app is deployed but that the district's domain does not serve.
    const hillside = await w.tenant({ name: 'Hillside Primary' });
    await w.deploy(partner.app.id, hillside.id, []);
    rp = await RelyingPartyServer.start(h, partner);
    browser = await launchChromium([resolveToLoopback([LION, HARBOUR, DISTRICT, SIBLING])]);
  });

  afterAll(async () => {
    await browser?.close();
    await rp?.stop();
    await h?.stop();
  });

  /** A fresh browser profile in a colour scheme; requests anywhere but the servers under test are refused and recorded. */
  function context(colorScheme: 'light' | 'dark' = 'light'): Promise<BrowserContext> {
    const allowed = [
      h.issuer,
      h.upstream.issuer,
      rp.url,
      ...[LION, HARBOUR, DISTRICT, SIBLING].map(origin),
      `http://${SIBLING}:${new URL(rp.url).port}`,
    ];
    return closedContext(browser, allowed, outside, { colorScheme });
  }

  /** The partner app's sign-in link opened on `domain`: the portal's page (errors of the page recorded). */
  async function portal(
    ctx: BrowserContext,
    domain: string,
    params: Record<string, string> = {},
  ): Promise<{ page: Page; status: number }> {
    const page = await ctx.newPage();
    const res = await page.goto(await rp.authorizationUrl(params, origin(domain)), { waitUntil: 'load' });
    return { page, status: res?.status() ?? 0 };
  }

  it('Lion City (light): the brand is worn; keyboard through the provider; back at the app with a verified ID token', async () => {
    const ctx = await context('light');
    const { page, status } = await portal(ctx, LION);
    expect(status).toBe(200);
    const l = await look(page);
    expect(l).toMatchObject({
      title: 'Lion City Schools: Lion City Primary',
      lang: 'en',
      heading: { text: 'Lion City Schools', color: 'rgb(29, 78, 216)', weight: '600' },
    });
    expect(l.heading.font).toMatch(/^"?brand-serif-0"?,/);
    expect(await page.evaluate(() => document.fonts.check('16px "brand-serif-0"'))).toBe(true);
    expect(l.card.accent).toBe('rgb(245, 158, 11)');
    expect(l.body).toMatchObject({ color: 'rgb(245, 247, 250)', justify: 'center' });
    expect(l.body.image).toMatch(
      new RegExp(`^url\\("${origin(LION)}/signin/brand/${LION}/background\\?v=\\d+"\\), linear-gradient`),
    );
    expect(l.logo).toMatch(new RegExp(`/signin/brand/${LION}/logo/light\\?v=`));
    await screenshot(page, 'sign-in-portal-lioncity-light');

    // Keyboard only: Tab to the provider button (a visible focus ring), Enter.
    const button = page.getByRole('button', { name: 'Sign in with Google' });
    for (let i = 0; i < 10 && !(await button.evaluate((b) => b === document.activeElement)); i++)
      await page.keyboard.press('Tab');
    expect(await button.evaluate((b) => [getComputedStyle(b).outlineStyle, getComputedStyle(b).outlineColor])).toEqual([
      'solid',
      'rgb(29, 78, 216)',
    ]);
    h.upstream.nextPerson = { sub: 'g-ada', email: ada.email, email_verified: true, name: ada.name };
    await Promise.all([page.waitForURL(`${h.upstream.issuer}/interaction/**`), page.keyboard.press('Enter')]);

    // The upstream provider's login page, then back to the app's redirect URI.
    await page.getByLabel('E-mail address').fill(ada.email);
    await screenshot(page, 'sign-in-upstream-login');
    await Promise.all([page.waitForURL(`${rp.redirectUri}?**`), page.keyboard.press('Enter')]);
    expect(await page.locator('h1').textContent()).toBe('Signed in');
    expect(rp.signedIn.at(-1)).toMatchObject({
      iss: h.issuer,
      sub: subjectFor(lion.id, ada.id),
      email: ada.email,
      tenant_id: lion.id,
      tenant_name: 'Lion City Primary',
    });
    await screenshot(page, 'sign-in-app-signed-in');

    // Signing out (RP-initiated logout on the school's domain): a confirmation form, then the app.
    const confirm = await page.goto(rp.endSessionUrl('bye', origin(LION)));
    expect(confirm?.headers()['content-security-policy']).toContain("default-src 'none'");
    expect(await page.locator('h1').textContent()).toBe('Sign out of Reading Buddy?');
    expect((await look(page)).heading.color).toBe('rgb(29, 78, 216)');
    expect((await look(page)).logo).toMatch(new RegExp(`/signin/brand/${LION}/logo/light\\?v=`));
    await screenshot(page, 'sign-in-logout-lioncity-light');
    await Promise.all([
      page.waitForURL(`${rp.redirectUri}?state=bye`),
      page.getByRole('button', { name: 'Yes, sign me out' }).click(),
    ]);
    expect(await page.locator('h1').textContent()).toBe('Signed out');
    await ctx.close();
  });

  it('Lion City (dark): the dark logo and background, a heading colour that reads on the dark card', async () => {
    const ctx = await context('dark');
    const { page } = await portal(ctx, LION);
    const l = await look(page);
    expect(l.logo).toMatch(new RegExp(`/signin/brand/${LION}/logo/dark\\?v=`));
    expect(l.body.color).toBe('rgb(11, 31, 58)');
    expect(l.body.image).not.toContain('gradient');
    // #1d4ed8 on the dark card is 2:1: the heading falls back to the text colour.
    expect(l.heading.color).toBe('rgb(232, 236, 239)');
    expect(await textContrast(page, 'h1')).toBeGreaterThanOrEqual(4.5);
    await screenshot(page, 'sign-in-portal-lioncity-dark');
    await ctx.close();
  });

  it.each(['light', 'dark'] as const)(
    'Harbour High (%s): another brand, left-aligned, a failing primary replaced where it would not read',
    async (scheme) => {
      const ctx = await context(scheme);
      const { page } = await portal(ctx, HARBOUR);
      const l = await look(page);
      expect(l.heading).toMatchObject({ text: 'Harbour High Sign-in', weight: '700', transform: 'uppercase' });
      expect(l.body.justify).toBe('flex-start');
      expect(l.card.accent).toBe('rgb(15, 118, 110)');
      expect(l.body.image).toContain(`/signin/brand/${HARBOUR}/background`);
      // #fde68a is 1.3:1 on white (the text colour is used) but 12:1 on the dark card (kept).
      expect(l.heading.color).toBe(scheme === 'light' ? 'rgb(29, 35, 41)' : 'rgb(253, 230, 138)');
      expect(await textContrast(page, 'h1')).toBeGreaterThanOrEqual(4.5);
      expect(await page.evaluate(() => getComputedStyle(document.body).fontFamily)).toMatch(
        /^"?Merriweather"?, Georgia/,
      );
      await screenshot(page, `sign-in-portal-harbour-${scheme}`);
      await ctx.close();
    },
  );

  it('off a vanity domain: the school search (a form with its token) by keyboard, then the providers', async () => {
    const ctx = await context('light');
    const page = await ctx.newPage();
    await page.goto(await rp.authorizationUrl());
    expect(await page.locator('h1').textContent()).toBe('Sign in');
    await page.getByLabel('Find your school').fill('harb');
    await Promise.all([page.waitForURL(/[?&]q=harb/), page.keyboard.press('Enter')]);
    expect(new URL(page.url()).searchParams.get('csrf')).toMatch(/^[\w-]{43}$/);
    await screenshot(page, 'sign-in-portal-school-search');
    await Promise.all([page.waitForURL(/[?&]tenant=/), page.getByRole('link', { name: 'Harbour High' }).click()]);
    await expect(page.getByRole('button', { name: 'Sign in with Google' }).isVisible()).resolves.toBe(true);
    expect(await textContrast(page, 'p')).toBeGreaterThanOrEqual(4.5);
    await ctx.close();
  });

  it('a domain serving several schools: the search finds only its schools, and another can be chosen', async () => {
    const ctx = await context('light');
    const { page } = await portal(ctx, DISTRICT);
    expect(await page.locator('h1').textContent()).toBe('District Schools');
    await page.getByLabel('Find your school').fill('Primary');
    await Promise.all([page.waitForURL(/[?&]q=Primary/), page.keyboard.press('Enter')]);
    expect(await page.locator('ul.schools a').allTextContents()).toEqual(['Lion City Primary']);
    await Promise.all([page.waitForURL(/[?&]tenant=/), page.getByRole('link', { name: 'Lion City Primary' }).click()]);
    await expect(page.getByRole('link', { name: 'Not your school? Choose another.' }).isVisible()).resolves.toBe(true);
    await ctx.close();
  });

  describe('refusals are readable pages in the brand', () => {
    it('a person not enrolled at the school', async () => {
      const ctx = await context('light');
      const { page } = await portal(ctx, HARBOUR);
      h.upstream.nextPerson = { sub: 'g-zed', email: 'zed@elsewhere.example', email_verified: true };
      await page.getByRole('button', { name: 'Sign in with Google' }).click();
      await page.getByLabel('E-mail address').fill('zed@elsewhere.example');
      await Promise.all([
        page.waitForURL(`${origin(HARBOUR)}/signin/interaction/**`),
        page.getByRole('button', { name: 'Sign in' }).click(),
      ]);
      await expect(page.getByRole('alert').textContent()).resolves.toContain('is not enrolled at Harbour High');
      expect(await page.locator('h1').textContent()).toBe('Not enrolled at this school');
      expect(await textContrast(page, '.error')).toBeGreaterThanOrEqual(4.5);
      expect((await look(page)).body.justify).toBe('flex-start');
      await screenshot(page, 'sign-in-refused-not-enrolled-harbour');
      // The way back: the app hears access_denied.
      await Promise.all([
        page.waitForURL(`${rp.redirectUri}?**`),
        page.getByRole('button', { name: 'Go back to Reading Buddy' }).click(),
      ]);
      expect(new URL(page.url()).searchParams.get('error')).toBe('access_denied');
      await ctx.close();
    });

    it('another school’s tenant on a vanity domain', async () => {
      const ctx = await context('dark');
      const { page, status } = await portal(ctx, LION, { tenant: harbour.id });
      expect(status).toBe(400);
      expect(await page.locator('h1').textContent()).toBe('Wrong sign-in page');
      expect(await textContrast(page, '.error')).toBeGreaterThanOrEqual(4.5);
      await screenshot(page, 'sign-in-refused-wrong-domain-lioncity-dark');
      await ctx.close();
    });

    it('a provider choice posted from another origin of the same site (CSRF), and from another site', async () => {
      const ctx = await context('light');
      const { page } = await portal(ctx, LION);
      const action = `${origin(LION)}${await page.locator('form[action$="/start"]').getAttribute('action')}`;
      const token = await page.locator('form[action$="/start"] input[name="csrf"]').inputValue();
      const attacker = await ctx.newPage();
      // A sibling origin (same site: the portal's cookies are sent), even holding the right token.
      await attacker.goto(
        `http://${SIBLING}:${new URL(rp.url).port}/form?${new URLSearchParams({ action, csrf: token, tenant: lion.id, provider: 'google' })}`,
      );
      const sibling = await Promise.all([
        attacker.waitForEvent('response', (r) => r.url() === action),
        attacker.getByRole('button').click(),
      ]).then(([r]) => r.status());
      expect(sibling).toBe(403);
      expect(await attacker.locator('h1').textContent()).toBe('This page has expired');
      // Another site: SameSite cookies stay home, so the sign-in is not even found.
      await attacker.goto(`${rp.url}/form?${new URLSearchParams({ action, tenant: lion.id, provider: 'google' })}`);
      const crossSite = await Promise.all([
        attacker.waitForEvent('response', (r) => r.url() === action),
        attacker.getByRole('button').click(),
      ]).then(([r]) => r.status());
      expect(crossSite).toBe(400);
      expect(await attacker.locator('h1').textContent()).toBe('This sign-in has expired');
      await ctx.close();
    });
  });

  it('loaded nothing from anywhere else (fonts, logos, backgrounds are files of the identity service)', () => {
    expect(outside).toEqual([]);
  });
});
