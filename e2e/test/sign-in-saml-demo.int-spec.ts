import { createRequire } from 'node:module';
import { listeningSocket } from '@edu/testing';
import { screenshot } from '@edu/testing/browser';
import { DemoProcess, inChromium, startDemoIdentity, type DemoIdentity } from './sign-in-demo';

/**
 * Tan Wei Ling's persistent NameID at the demo SAML app (Lion City Digital Library, app
 * d4e5f6a7-…-3b4c5d6e7f08) and Lion City Schools District: the UUID v5 of
 * `<tenant id>:<app id>:<user id>` (apps/identity/src/README.md, "SAML"), not her user id.
 */
const NAME_ID = '401005d7-c449-546c-a665-9a0f37698ce7';
const CLAIMS = 'http://schemas.xmlsoap.org/ws/2005/05/identity/claims';

const load = createRequire(__filename);
const { demoSignInConfig } = load(
  '../../tools/demo/sign-in/config',
) as typeof import('../../tools/demo/sign-in/config');
const { pointSamlAppAt, DEMO_SAML_APP_ID } = load(
  '../../tools/demo/sign-in/saml-app',
) as typeof import('../../tools/demo/sign-in/saml-app');
const OPERATOR = { id: 'operator', secret: 'demo-operator-secret-not-for-production' };

/**
 * The SAML demo of `npm start`: the demo data, identity as a process with the demo upstream as its
 * Microsoft, and the demo SAML service provider (@node-saml/node-saml) that the demo library app
 * is pointed at, as npm start does; a person's trip in Debian's Chromium from the SP's sign-in
 * link through the portal and the demo provider back to the SP showing the validated assertion.
 */
describe('SAML demo: the demo SAML app signs a demo person in through the school’s SAML identity provider', () => {
  const demo = demoSignInConfig();
  const tanWeiLing = demo.people.find((p) => p.email.startsWith('wei.ling.tan'))!;
  let core: DemoIdentity;
  let sp: DemoProcess;

  beforeAll(async () => {
    core = await startDemoIdentity();
    const spSocket = await listeningSocket();
    const urls = { ...core.urls, sp: spSocket.url };
    sp = await new DemoProcess('saml-sp.js', spSocket).start({
      DEMO_SAML_SP_URL: urls.sp,
      IDENTITY_URL: urls.identity,
    });
    // As npm start does: the demo library app (addresses that do not exist here) now points at the demo SP; once.
    expect(await pointSamlAppAt({ identityUrl: urls.identity, spUrl: urls.sp, operator: OPERATOR })).toEqual({
      action: 'moved',
      name: 'Lion City Digital Library',
    });
    expect(await pointSamlAppAt({ identityUrl: urls.identity, spUrl: urls.sp, operator: OPERATOR })).toEqual({
      action: 'kept',
      name: 'Lion City Digital Library',
    });
  }, 180_000);

  afterAll(async () => {
    await sp?.stop();
    await core?.stop();
  });

  it('in Chromium, as the banner tells: open the SAML app, press Microsoft, pick the person, see the validated assertion; no policy blocks a step', async () => {
    await inChromium(async (page, refused) => {
      await page.goto(`${sp.url}/login`);
      // The AuthnRequest names the school's identity provider: the portal shows the school's ways to sign in at once.
      await page.getByRole('button', { name: 'Sign in with Microsoft' }).click();
      await page.getByRole('button', { name: `Sign in as ${tanWeiLing.name}` }).click();
      await page.waitForURL(`${sp.url}/saml/acs`);
      const assertion = JSON.parse((await page.locator('#assertion').textContent()) ?? '{}');
      expect(assertion).toEqual({
        nameID: NAME_ID,
        nameIDFormat: 'urn:oasis:names:tc:SAML:2.0:nameid-format:persistent',
        attributes: {
          [`${CLAIMS}/emailaddress`]: tanWeiLing.email,
          [`${CLAIMS}/nickname`]: expect.any(String),
          [`${CLAIMS}/name`]: tanWeiLing.name,
        },
      });
      await screenshot(page, 'sign-in-saml-demo-assertion');
      // Single logout: the SP's LogoutRequest, the IdP's signed LogoutResponse posted back and validated.
      await page.getByRole('link', { name: 'Sign out' }).click();
      await page.waitForURL(`${sp.url}/saml/logout`);
      await expect(
        page.getByRole('heading', { name: 'Signed out of Lion City Digital Library' }).isVisible(),
      ).resolves.toBe(true);
      await screenshot(page, 'sign-in-saml-demo-signed-out');
      expect(refused).toEqual([]);
    });
  });

  it('in Chromium, a sign-in the school starts (its link to the app): the same sign-in, then an unsolicited response the SP accepts', async () => {
    await inChromium(async (page, refused) => {
      await page.goto(`${core.identity.url}/saml/${demo.tenant.id}/apps/${DEMO_SAML_APP_ID}/start`);
      await page.getByRole('button', { name: 'Sign in with Microsoft' }).click();
      await page.getByRole('button', { name: `Sign in as ${tanWeiLing.name}` }).click();
      await page.waitForURL(`${sp.url}/saml/acs`);
      expect(JSON.parse((await page.locator('#assertion').textContent()) ?? '{}')).toMatchObject({ nameID: NAME_ID });
      await screenshot(page, 'sign-in-saml-demo-idp-initiated');
      expect(refused).toEqual([]);
    });
  });

  it('in Chromium, from the school’s page of apps: the library’s tile (its sign_on_url) signs the person in at the demo SP', async () => {
    await inChromium(async (page, refused) => {
      await page.goto(`${core.identity.url}/signin/schools/${demo.tenant.id}/apps`);
      const tile = page.getByRole('link', { name: 'Lion City Digital Library' });
      await expect(tile.getAttribute('href')).resolves.toBe(`${sp.url}/login`);
      await screenshot(page, 'sign-in-portal-apps');
      await tile.click();
      await page.getByRole('button', { name: 'Sign in with Microsoft' }).click();
      await page.getByRole('button', { name: `Sign in as ${tanWeiLing.name}` }).click();
      await page.waitForURL(`${sp.url}/saml/acs`);
      expect(JSON.parse((await page.locator('#assertion').textContent()) ?? '{}')).toMatchObject({
        nameID: NAME_ID,
        nameIDFormat: 'urn:oasis:names:tc:SAML:2.0:nameid-format:persistent',
      });
      await screenshot(page, 'sign-in-portal-apps-assertion');
      expect(refused).toEqual([]);
    });
  });
});
