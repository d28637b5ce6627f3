import type { Browser, BrowserContext, Page } from 'playwright-core';
import { closedContext, launchChromium, resolveToLoopback, screenshot } from '@edu/testing/browser';
import { oauth2Settings, SchoolAdmin, TestUpstream, type UpstreamPerson } from '@edu/testing/sign-in';
import type { CreatedApp, WorldUser } from '@edu/testing';
import type { TenantEntity } from '@edu/persistence';
import { identifierIdFor } from '@edu/sign-in';
import { brandedDomain, kampongBrand } from './support/brands';
import { uri } from './support/harness';
import { RelyingPartyServer } from './support/relying-party-server';
import { SignInHarness } from './support/sign-in-harness';
import { subjectFor } from '@edu/sign-in';

const SECRET = 'kampong-idp-secret-41c7';
/** The school's vanity domain (the portal). */
const KAMPONG = 'signin.kampong.test';
/** Host names of the school's own provider as the browser reaches it: one for staff, one for families (the buttons' labels). */
const STAFF_IDP = 'staff.kampong-idp.test';
const FAMILY_IDP = 'families.kampong-idp.test';

/**
 * The whole sign-in in Debian's Chromium through a school's own `oauth2` provider (a local
 * oidc-provider configured over the Identity API with a write-only client secret): the partner
 * app (openid-client) -> the portal on the school's vanity domain -> the school's login page ->
 * back to the app, which verifies our ID token against our discovery. Then a parent added just in
 * time, and one refused when the school does not allow it.
 */
describe('sign-in in a browser: the school’s own provider and just-in-time provisioning', () => {
  let h: SignInHarness;
  let idp: TestUpstream;
  let rp: RelyingPartyServer;
  let browser: Browser;
  let admin: SchoolAdmin;
  let school: TenantEntity;
  let partner: CreatedApp;
  let mei: WorldUser;
  const providers = { staff: '', families: '' };
  const outside: string[] = [];
  const port = (url: string) => new URL(url).port;
  const origin = (host: string, base = h.issuer) => `http://${host}:${port(base)}`;

  beforeAll(async () => {
    h = await SignInHarness.start();
    idp = await TestUpstream.start({
      clientId: 'school-idp',
      clientSecret: SECRET,
      redirectUris: [`${h.issuer}/signin/callback`],
      loginPage: true,
    });
    const w = h.world();
    school = await w.tenant({ name: 'Kampong Primary' });
    partner = await w.app({ type: 'developer', id: (await w.developer()).id }, 'Maths Garden');
    await w.deploy(partner.app.id, school.id, []);
    await brandedDomain(h.ds, school.id, KAMPONG, kampongBrand());
    admin = await SchoolAdmin.start(w, h.issuer, school.id, {
      read: uri('id.tenant-core.readonly'),
      write: uri('id.tenant-core.write'),
    });
    // One provider for staff (no JIT), one for families (JIT): the same school IdP, reached under two names.
    const settings = (host: string) =>
      oauth2Settings(idp, 'school-idp', {
        client_secret: SECRET,
        authorization_url: `${origin(host, idp.issuer)}/auth`,
      });
    providers.staff = await admin.addOauth2Provider(settings(STAFF_IDP), { jit: false });
    providers.families = await admin.addOauth2Provider(settings(FAMILY_IDP), { jit: true });
    await admin.constituency('staff', [providers.staff], false);
    await admin.constituency('parents', [providers.families], true);
    mei = await w.user([school.id], {
      email: 'mei.tan@kampong.example',
      constituencies: ['staff'],
      idpIdentifiers: [{ id: identifierIdFor('idp-mei'), idp_id: providers.staff }],
    });
    rp = await RelyingPartyServer.start(h, partner);
    browser = await launchChromium([resolveToLoopback([KAMPONG, STAFF_IDP, FAMILY_IDP])]);
  });

  afterAll(async () => {
    await browser?.close();
    await rp?.stop();
    await idp?.stop();
    await h?.stop();
  });

  const context = (): Promise<BrowserContext> =>
    closedContext(
      browser,
      [h.issuer, idp.issuer, rp.url, origin(KAMPONG), origin(STAFF_IDP, idp.issuer), origin(FAMILY_IDP, idp.issuer)],
      outside,
    );

  /** The partner app's sign-in link opened on the school's vanity domain: the portal's providers page. */
  async function portal(ctx: BrowserContext): Promise<Page> {
    const page = await ctx.newPage();
    const res = await page.goto(await rp.authorizationUrl({}, origin(KAMPONG)));
    expect(res?.status()).toBe(200);
    expect(await page.locator('h1').textContent()).toBe('Kampong Schools');
    return page;
  }

  /**
   * From the portal: the button of the provider on `host`, its login page (the person types their
   * address), then wherever the sign-in ends (`until`); the status of that last page.
   */
  async function throughSchoolIdp(page: Page, host: string, person: UpstreamPerson, until: string): Promise<number> {
    idp.nextPerson = person;
    await Promise.all([
      page.waitForURL(`${origin(host, idp.issuer)}/interaction/**`),
      page.getByRole('button', { name: `Sign in with ${host}` }).click(),
    ]);
    expect(await page.locator('h1').textContent()).toBe('Test school account');
    await page.getByLabel('E-mail address').fill(person.email ?? person.sub);
    const [res] = await Promise.all([
      page.waitForResponse((r) => r.url().startsWith(until) && r.request().isNavigationRequest()),
      page.getByRole('button', { name: 'Sign in' }).click(),
    ]);
    await page.waitForLoadState();
    return res.status();
  }

  const counts = async () =>
    (
      await h.ds.query(
        `SELECT (SELECT count(*) FROM users)::int AS users, (SELECT count(*) FROM tenant_users)::int AS links`,
      )
    )[0] as { users: number; links: number };

  it('a teacher signs in with the school’s own provider on its vanity domain; the app verifies our ID token', async () => {
    const ctx = await context();
    const page = await portal(ctx);
    // Both of the school's providers, each button a served image (never inlined), labelled by host.
    for (const [id, host] of [
      [providers.staff, STAFF_IDP],
      [providers.families, FAMILY_IDP],
    ]) {
      const img = page.getByRole('button', { name: `Sign in with ${host}` }).locator('img');
      expect(await img.getAttribute('src')).toBe(`/signin/providers/${id}/button.svg`);
      expect(await img.evaluate((el) => (el as unknown as { naturalWidth: number }).naturalWidth)).toBeGreaterThan(0);
    }
    await screenshot(page, 'sign-in-portal-kampong-tenant-providers');
    const tokenRequests = idp.tokenRequests;
    const status = await throughSchoolIdp(
      page,
      STAFF_IDP,
      { sub: 'idp-mei', email: mei.email, email_verified: true, name: mei.name },
      rp.redirectUri,
    );
    expect(status).toBe(200);
    expect(await page.locator('h1').textContent()).toBe('Signed in');
    // Identity exchanged the school's code with the stored secret, once.
    expect(idp.tokenRequests).toBe(tokenRequests + 1);
    expect(rp.signedIn.at(-1)).toMatchObject({
      iss: h.issuer,
      aud: partner.clientId,
      sub: subjectFor(school.id, mei.id),
      email: mei.email,
      tenant_id: school.id,
      tenant_name: 'Kampong Primary',
      constituencies: ['staff'],
    });
    const [last] = await admin.signIns('limit=1');
    expect(last).toMatchObject({
      outcome: 'success',
      reason: null,
      tenant_id: school.id,
      app_id: partner.app.id,
      provider_id: providers.staff,
      user_id: mei.id,
    });
    await ctx.close();
  });

  it('a new parent is added just in time and lands signed in; the log says provisioned, the Identity API shows them once', async () => {
    const parent = { sub: 'idp-parent-lim', email: 'lim.wei@families.example', email_verified: true, name: 'Lim Wei' };
    const before = await counts();
    expect((await admin.users()).map((u) => u.user.email)).not.toContain(parent.email);
    const ctx = await context();
    const page = await portal(ctx);
    expect(await throughSchoolIdp(page, FAMILY_IDP, parent, rp.redirectUri)).toBe(200);
    expect(await page.locator('h1').textContent()).toBe('Signed in');
    expect(await page.locator('#detail').textContent()).toContain(
      'Lim Wei (lim.wei@families.example) at Kampong Primary',
    );
    await screenshot(page, 'sign-in-app-signed-in-jit');
    const claims = rp.signedIn.at(-1)!;
    expect(claims).toMatchObject({
      iss: h.issuer,
      aud: partner.clientId,
      email: parent.email,
      name: 'Lim Wei',
      tenant_id: school.id,
      constituencies: ['parents'],
    });

    const [last] = await admin.signIns('limit=1');
    expect(last).toMatchObject({
      outcome: 'success',
      reason: 'provisioned',
      provider_id: providers.families,
      app_id: partner.app.id,
    });
    // The app's sub is the person's subject at this school; the log and the Identity API name the user id.
    expect(claims.sub).toBe(subjectFor(school.id, last.user_id!));
    const added = (await admin.users()).filter((u) => u.user.email === parent.email);
    expect(added).toEqual([
      {
        user_email: parent.email,
        tenant_id: school.id,
        constituencies: ['parents'],
        user: { id: last.user_id, email: parent.email, name: 'Lim Wei', nickname: 'Lim Wei', picture: '' },
      },
    ]);
    expect(await counts()).toEqual({ users: before.users + 1, links: before.links + 1 });
    await ctx.close();

    // Next time (a new browser) the identifier recorded at provisioning maps them: the same person, nobody added, no "provisioned".
    const again = await context();
    expect(await throughSchoolIdp(await portal(again), FAMILY_IDP, parent, rp.redirectUri)).toBe(200);
    expect(rp.signedIn.at(-1)).toMatchObject({ sub: claims.sub, email: parent.email });
    expect((await admin.signIns('limit=1'))[0]).toMatchObject({
      outcome: 'success',
      reason: null,
      user_id: last.user_id,
    });
    expect((await admin.users()).filter((u) => u.user.email === parent.email)).toHaveLength(1);
    expect(await counts()).toEqual({ users: before.users + 1, links: before.links + 1 });
    await again.close();
  });

  it('a stranger at the staff provider (no JIT, no self-service) gets the readable “not enrolled” page, and nothing is created', async () => {
    const stranger = { sub: 'idp-stranger', email: 'stranger@kampong.example', email_verified: true, name: 'Stranger' };
    const before = await counts();
    const users = await admin.users();
    const ctx = await context();
    const page = await portal(ctx);
    expect(await throughSchoolIdp(page, STAFF_IDP, stranger, `${origin(KAMPONG)}/signin/interaction/`)).toBe(403);
    expect(await page.locator('h1').textContent()).toBe('Not enrolled at this school');
    await expect(page.getByRole('alert').textContent()).resolves.toContain(
      `The ${STAFF_IDP} account you used is not enrolled at Kampong Primary`,
    );
    await screenshot(page, 'sign-in-refused-not-enrolled-kampong');

    expect(await counts()).toEqual(before);
    expect(await admin.users()).toEqual(users);
    expect(await h.ds.query(`SELECT id FROM users WHERE email = $1`, [stranger.email])).toEqual([]);
    const [last] = await admin.signIns('limit=1');
    expect(last).toMatchObject({
      outcome: 'refused',
      reason: 'not_enrolled',
      provider_id: providers.staff,
      user_id: null,
      app_id: partner.app.id,
    });
    // The way back: the app hears access_denied and has no new sign-in.
    const signedIn = rp.signedIn.length;
    await Promise.all([
      page.waitForURL(`${rp.redirectUri}?**`),
      page.getByRole('button', { name: 'Go back to Maths Garden' }).click(),
    ]);
    expect(new URL(page.url()).searchParams.get('error')).toBe('access_denied');
    expect(rp.signedIn).toHaveLength(signedIn);
    await ctx.close();
  });

  it('loaded nothing from anywhere else', () => {
    expect(outside).toEqual([]);
  });
});
