import { AppEntity, type AppSamlSettings, type TenantEntity } from '@edu/persistence';
import { generateClientId, generateClientSecret, hashClientSecret } from '@edu/signing';
import type { WorldUser } from '@edu/testing';
import { CookieBrowser, FORM_HEADERS, nextStop, providerChoice, SchoolAdmin } from '@edu/testing/sign-in';
import { NAME_ID_FORMAT, persistentNameId } from '@edu/sign-in';
import { uri } from './support/harness';
import { testSp } from './support/saml-sp';
import { activateSharing, putRoster } from './support/sharing-roster';
import { SignInHarness } from './support/sign-in-harness';

const SP = 'https://sp.example';
const CLAIMS_NS = 'http://schemas.xmlsoap.org/ws/2005/05/identity/claims';
const hidden = (body: string, name: string) => new RegExp(`name="${name}" value="([^"]*)"`).exec(body)?.[1];

/**
 * Data sharing at a SAML sign-in, with @node-saml/node-saml as the service provider: a person the
 * school does not share is refused at the portal (no response reaches the app), and a shared
 * person's assertion carries no withheld attribute and never a withheld address as its NameID.
 */
describe('SAML sign-in under data sharing', () => {
  let h: SignInHarness;
  let school: TenantEntity;
  let admin: SchoolAdmin;
  let ada: WorldUser;
  let ben: WorldUser;
  let sso: string;
  let idpCert: string;
  let idpEntityId: string;

  /** A `saml` app deployed at the school, asking for the e-mail address as NameID, with e-mail and nickname attributes. */
  async function emailApp(name: string) {
    const entityId = `${SP}/${name}`;
    const made = testSp({
      entityId,
      replyUrl: `${SP}/acs`,
      ssoUrl: sso,
      idpCert,
      idpEntityId,
      identifierFormat: NAME_ID_FORMAT.email,
    });
    const saml: AppSamlSettings = {
      metadata_url: `${SP}/metadata`,
      metadata_xml: made.metadata,
      entity_id: entityId,
      reply_url: `${SP}/acs`,
      sign_on_url: `${SP}/login`,
      relay_state: null,
      sign_out_url: `${SP}/logout`,
      claims: [
        {
          namespace: CLAIMS_NS,
          claims: [
            { name: 'emailaddress', value: 'user.email' },
            { name: 'name', value: 'user.name' },
            { name: 'nickname', value: 'user.nickname' },
          ],
        },
      ],
    };
    const app = await h.ds.getRepository(AppEntity).save({
      name: `SAML ${name}`,
      ownerType: 'developer',
      ownerId: (await h.world().developer()).id,
      authType: 'saml' as const,
      oauth2: null,
      saml,
      clientId: generateClientId('app'),
      clientSecretHash: hashClientSecret(generateClientSecret()),
    });
    await h.world().deploy(app.id, school.id, []);
    return { sp: made.sp, app };
  }

  /** The person's trip from the app's AuthnRequest through the portal and the upstream provider, to the last page. */
  async function journey(url: string, who: WorldUser) {
    const browser = new CookieBrowser();
    h.upstream.nextPerson = { sub: `g-${who.email}`, email: who.email, email_verified: true };
    let res = await browser.get(url);
    for (let i = 0; i < 20 && res.location; i++) res = await browser.get(res.location);
    const choice = providerChoice(res.body, 'google')!;
    res = await browser.request(`${h.issuer}${choice.action}`, {
      method: 'POST',
      headers: FORM_HEADERS,
      body: choice.body,
    });
    for (let i = 0; i < 20 && nextStop(res); i++) res = await browser.get(nextStop(res)!);
    return res;
  }

  beforeAll(async () => {
    h = await SignInHarness.start();
    const w = h.world();
    school = await w.tenant({ name: 'Lion City Primary' });
    await w.constituency(school.id, 'staff', ['google']);
    ada = await w.user([school.id], { email: 'ada@lioncity.example', constituencies: ['staff'] });
    ben = await w.user([school.id], { email: 'ben@lioncity.example', constituencies: ['staff'] });
    await putRoster(h.ds, school.id, {
      classes: [
        { id: 'cls-maths', people: [{ id: 'usr-ada', email: 'ada@lioncity.example', role: 'teacher' }] },
        { id: 'cls-art', people: [{ id: 'usr-ben', email: 'ben@lioncity.example', role: 'teacher' }] },
      ],
    });
    admin = await SchoolAdmin.start(w, h.issuer, school.id, {
      read: uri('id.tenant-core.readonly'),
      write: uri('id.tenant-core.write'),
    });
    const metadata = await (await fetch(`${h.issuer}/saml/${school.id}/metadata`)).text();
    idpCert = /<(?:ds:)?X509Certificate>([^<]+)</.exec(metadata)![1];
    idpEntityId = `${h.issuer}/saml/${school.id}`;
    sso = `${idpEntityId}/sso`;
  });

  afterAll(async () => {
    await h?.stop();
  });

  it('refuses a person the school does not share with the app: a page, no SAMLResponse, a not_shared row', async () => {
    const { sp, app } = await emailApp('refusing');
    await activateSharing((m, p, b) => admin.call(m, p, b), school.id, app.id, {
      mode: 'classes',
      classes: ['cls-maths'],
    });
    const res = await journey(await sp.getAuthorizeUrlAsync('', undefined, {}), ben);
    expect(res.status).toBe(403);
    expect(res.body).toContain('Not shared with this app');
    expect(res.body).not.toContain('SAMLResponse');
    expect((await admin.signIns('limit=1'))[0]).toMatchObject({
      outcome: 'refused',
      reason: 'not_shared',
      app_id: app.id,
      user_id: ben.id,
    });
  });

  it('a shared person with contact and preferred_names withheld: no e-mail or nickname attribute, a persistent NameID though the app asked for the address', async () => {
    const { sp, app } = await emailApp('minimised');
    const spec = { mode: 'classes', classes: ['cls-maths'], withhold: ['contact', 'preferred_names'] };
    await activateSharing((m, p, b) => admin.call(m, p, b), school.id, app.id, spec);
    const res = await journey(await sp.getAuthorizeUrlAsync('', undefined, {}), ada);
    expect(res.status).toBe(200);
    const SAMLResponse = hidden(res.body, 'SAMLResponse')!;
    expect(Buffer.from(SAMLResponse, 'base64').toString()).not.toContain(ada.email);
    const { profile } = await sp.validatePostResponseAsync({ SAMLResponse });
    expect(profile).toMatchObject({
      nameID: persistentNameId(school.id, app.id, ada.id),
      nameIDFormat: NAME_ID_FORMAT.persistent,
    });
    expect(profile!.attributes).toEqual({ [`${CLAIMS_NS}/name`]: ada.name });
    expect((await admin.signIns('limit=1'))[0]).toMatchObject({ outcome: 'success', app_id: app.id, user_id: ada.id });
  });

  it('without anything withheld the same app gets the address as NameID and every attribute, as before', async () => {
    const { sp } = await emailApp('everything');
    const res = await journey(await sp.getAuthorizeUrlAsync('', undefined, {}), ben);
    const { profile } = await sp.validatePostResponseAsync({ SAMLResponse: hidden(res.body, 'SAMLResponse')! });
    expect(profile).toMatchObject({ nameID: ben.email, nameIDFormat: NAME_ID_FORMAT.email });
    expect(profile!.attributes).toEqual({
      [`${CLAIMS_NS}/emailaddress`]: ben.email,
      [`${CLAIMS_NS}/name`]: ben.name,
      [`${CLAIMS_NS}/nickname`]: ben.nickname,
    });
  });
});
