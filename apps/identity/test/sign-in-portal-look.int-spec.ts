import type { Browser, BrowserContext, Page } from 'playwright-core';
import { closedContext, launchChromium, resolveToLoopback, screenshot } from '@edu/testing/browser';
import { oauth2Settings, SchoolAdmin, TestUpstream } from '@edu/testing/sign-in';
import type { TenantEntity } from '@edu/persistence';
import { brandedDomain, kampongBrand } from './support/brands';
import { uri } from './support/harness';
import { RelyingPartyServer } from './support/relying-party-server';
import { SignInHarness } from './support/sign-in-harness';

/** The school's vanity domain (the portal) and the host of its own provider. */
const KAMPONG = 'signin.kampong.test';
const SCHOOL_IDP = 'login.kampong-idp.test';
/** Sign-in pages one address may load per minute here: a few pages, then the branded 429. */
const SIGN_IN_BUDGET = 12;
const SECRET = 'kampong-idp-secret-5e02';
/** A button as schools draw them: 240 x 40 with its own words. */
const BUTTON_SVG =
  '<svg xmlns="http://www.w3.org/2000/svg" width="240" height="40" viewBox="0 0 240 40"><rect x="0.5" y="0.5" width="239" height="39" rx="4" fill="#0b1f3a"/><text x="120" y="25" font-family="sans-serif" font-size="14" text-anchor="middle" fill="#ffffff">Kampong staff login</text></svg>';

/**
 * How the portal looks to a person, in Debian's Chromium on a school's vanity domain: a provider's
 * button says its display name (or the school's name, not a host) with its graphic at a legible
 * size, and a page refused for too many attempts wears the school's brand. Screenshots go to
 * test-artifacts/.
 */
describe('sign-in portal in a browser: provider buttons and the branded refusal page', () => {
  let h: SignInHarness;
  let idp: TestUpstream;
  let rp: RelyingPartyServer;
  let browser: Browser;
  let admin: SchoolAdmin;
  let school: TenantEntity;
  let provider: string;
  const outside: string[] = [];
  const origin = (host: string, base = h.issuer) => `http://${host}:${new URL(base).port}`;

  beforeAll(async () => {
    h = await SignInHarness.start({
      env: {
        RATE_LIMIT_ENABLED: 'true',
        REDIS_URL: process.env.REDIS_URL as string,
        RATE_LIMIT_PREFIX: `rl-portal-look-${process.pid}`,
        RATE_LIMIT_WINDOW_SECONDS: '600',
        RATE_LIMIT_SIGN_IN_PER_ADDRESS: String(SIGN_IN_BUDGET),
      },
    });
    idp = await TestUpstream.start({
      clientId: 'school-idp',
      clientSecret: SECRET,
      redirectUris: [`${h.issuer}/signin/callback`],
    });
    const w = h.world();
    school = await w.tenant({ name: 'Kampong Primary' });
    const partner = await w.app({ type: 'developer', id: (await w.developer()).id }, 'Maths Garden');
    await w.deploy(partner.app.id, school.id, []);
    await brandedDomain(h.ds, school.id, KAMPONG, kampongBrand());
    admin = await SchoolAdmin.start(w, h.issuer, school.id, {
      read: uri('id.tenant-core.readonly'),
      write: uri('id.tenant-core.write'),
    });
    const settings = oauth2Settings(idp, 'school-idp', {
      client_secret: SECRET,
      authorization_url: `${origin(SCHOOL_IDP, idp.issuer)}/auth`,
    });
    provider = await admin.addOauth2Provider(settings, { jit: false });
    await admin.constituency('staff', [provider], false);
    rp = await RelyingPartyServer.start(h, partner);
    browser = await launchChromium([resolveToLoopback([KAMPONG, SCHOOL_IDP])]);
  });

  afterAll(async () => {
    await browser?.close();
    await rp?.stop();
    await idp?.stop();
    await h?.stop();
  });

  const context = (): Promise<BrowserContext> =>
    closedContext(browser, [h.issuer, idp.issuer, rp.url, origin(KAMPONG), origin(SCHOOL_IDP, idp.issuer)], outside);

  async function providersPage(ctx: BrowserContext): Promise<Page> {
    const page = await ctx.newPage();
    const res = await page.goto(await rp.authorizationUrl({}, origin(KAMPONG)));
    expect(res?.status()).toBe(200);
    expect(await page.locator('h1').textContent()).toBe('Kampong Schools');
    return page;
  }

  /** The rendered size of the provider's button graphic, in CSS pixels. */
  const graphicSize = (page: Page, name: string) =>
    page
      .getByRole('button', { name })
      .locator('img')
      .evaluate((el) => {
        const r = (
          el as unknown as { getBoundingClientRect(): { width: number; height: number } }
        ).getBoundingClientRect();
        return { width: r.width, height: r.height };
      });

  it('names a provider by the school when it has no display name, then by its display name; the graphic is legible', async () => {
    const ctx = await context();
    let page = await providersPage(ctx);
    // The school's only provider without a display name is called after the school, never its host.
    await expect(page.getByRole('button', { name: 'Sign in with Kampong Primary' }).isVisible()).resolves.toBe(true);
    expect(await page.content()).not.toContain(`Sign in with ${SCHOOL_IDP}`);
    const res = await admin.call('PATCH', `/identity-providers/${provider}`, {
      display_name: 'Kampong staff account',
      button_graphic: BUTTON_SVG,
    });
    expect(res.status).toBe(200);
    expect((res.body as { display_name?: string }).display_name).toBe('Kampong staff account');
    await page.close();
    page = await providersPage(ctx);
    const name = 'Sign in with Kampong staff account';
    await expect(page.getByRole('button', { name }).isVisible()).resolves.toBe(true);
    // The graphic (240 x 40 as drawn) is shown at its own size, not as a thumbnail beside the text.
    const size = await graphicSize(page, name);
    expect(size.width).toBeGreaterThanOrEqual(200);
    expect(size.height).toBeGreaterThanOrEqual(40);
    await screenshot(page, 'sign-in-portal-provider-display-name');
    await ctx.close();
  });

  it('answers too many attempts with a page in the school’s brand, with Retry-After', async () => {
    const ctx = await context();
    const page = await providersPage(ctx);
    const url = page.url();
    let status = 200;
    let retryAfter: string | undefined;
    for (let i = 0; i < SIGN_IN_BUDGET * 2 && status !== 429; i++) {
      const res = await page.goto(url);
      status = res?.status() ?? 0;
      retryAfter = (await res?.allHeaders())?.['retry-after'];
    }
    expect(status).toBe(429);
    expect(Number(retryAfter)).toBeGreaterThan(0);
    expect(await page.locator('h1').textContent()).toBe('Too many attempts');
    // The school's brand: its stylesheet and its logo, as on its other pages.
    await expect(page.locator('picture.logo img').count()).resolves.toBe(1);
    const sheets = await page
      .locator('link[rel="stylesheet"]')
      .evaluateAll((links) =>
        links.map((l) => (l as unknown as { getAttribute(n: string): string | null }).getAttribute('href') ?? ''),
      );
    expect(sheets.some((href) => href.includes('/signin/brand/'))).toBe(true);
    await screenshot(page, 'sign-in-portal-too-many-attempts');
    expect(outside).toEqual([]);
    await ctx.close();
  });
});
