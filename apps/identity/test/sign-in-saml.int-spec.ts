import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { deflateRawSync, inflateRawSync } from 'node:zlib';
import { AppEntity, type AppSamlSettings, type TenantEntity } from '@edu/persistence';
import { generateClientId, generateClientSecret, hashClientSecret, KeyEncryption, SigningKeyStore } from '@edu/signing';
import { CookieBrowser, FORM_HEADERS, nextStop, providerChoice, type BrowserResponse } from '@edu/testing/sign-in';
import { persistentNameId } from '@edu/sign-in';
import { SamlCredentials } from '@edu/sign-in';
import { metadataIdp } from '@edu/sign-in';
import { loginResponse } from '@edu/sign-in';
import { SamlSpMetadata } from '@edu/sign-in';
import { SignInHarness } from './support/sign-in-harness';
import { SignInLog } from './support/sign-in-log';
import { testSp, type NodeSaml } from './support/saml-sp';

const SP = 'https://sp.example';
const CLAIMS_NS = 'http://schemas.xmlsoap.org/ws/2005/05/identity/claims';
const hidden = (body: string, name: string) =>
  new RegExp(`name="${name}" value="([^"]*)"`)
    .exec(body)?.[1]
    ?.replace(/&#(\d+);/g, (_m, c: string) => String.fromCharCode(Number(c)));

// Several tests make a new service provider (an RSA key) and a few complete SAML trips each, every
// message signed or checked by both sides: seconds apiece when two cores run other suites too.
jest.setTimeout(60_000);

describe('sign-in: SAML 2.0 identity provider (an independent service provider, @node-saml/node-saml)', () => {
  let h: SignInHarness;
  let tenant: TenantEntity;
  let ada: { id: string; email: string; name: string };
  let idpCert: string;
  let sso: string;
  let idpEntityId: string;

  /** A `saml` app deployed at the tenant, its metadata from `metadata` (a node-saml SP's). */
  async function samlApp(entityId: string, metadata: string, extra: Partial<AppSamlSettings> = {}): Promise<AppEntity> {
    const w = h.world();
    const saml: AppSamlSettings = {
      metadata_url: `${SP}/metadata`,
      metadata_xml: metadata,
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
          ],
        },
        {
          namespace: 'urn:edu',
          claims: [
            { name: 'school', value: 'user.tenant_name' },
            { name: 'groups', value: 'user.constituencies' },
          ],
        },
      ],
      ...extra,
    };
    const app = await h.ds.getRepository(AppEntity).save({
      name: `SAML ${entityId}`,
      ownerType: 'developer',
      ownerId: (await w.developer()).id,
      authType: 'saml' as const,
      oauth2: null,
      saml,
      clientId: generateClientId('app'),
      clientSecretHash: hashClientSecret(generateClientSecret()),
    });
    await w.deploy(app.id, tenant.id, []);
    return app;
  }

  /** A node-saml SP and its app (entity id unique per test). */
  async function partner(
    name: string,
    o: { signRequests?: boolean; binding?: 'HTTP-Redirect' | 'HTTP-POST'; identifierFormat?: string | null } = {},
  ) {
    const entityId = `${SP}/${name}`;
    const made = testSp({ entityId, replyUrl: `${SP}/acs`, ssoUrl: sso, idpCert, idpEntityId, ...o });
    const app = await samlApp(entityId, made.metadata);
    return { ...made, app, entityId };
  }

  /** The person's trip from the SSO endpoint through the portal and the upstream provider, to the page posting the response. */
  async function journey(browser: CookieBrowser, first: Promise<BrowserResponse>): Promise<BrowserResponse> {
    h.upstream.nextPerson = { sub: 'g-ada-saml', email: ada.email, email_verified: true };
    let res = await first;
    for (let i = 0; i < 20 && res.location; i++) res = await browser.get(res.location);
    const choice = providerChoice(res.body, 'google');
    if (!choice) return res;
    res = await browser.request(`${h.issuer}${choice.action}`, {
      method: 'POST',
      headers: FORM_HEADERS,
      body: choice.body,
    });
    for (let i = 0; i < 20 && nextStop(res); i++) res = await browser.get(nextStop(res)!);
    return res;
  }

  const redirectStart = async (sp: NodeSaml, relay = '') => {
    const browser = new CookieBrowser();
    return { browser, res: await journey(browser, browser.get(await sp.getAuthorizeUrlAsync(relay, undefined, {}))) };
  };

  const refusals = async (reason: string) =>
    Number(
      (
        await h.ds.query(
          `SELECT count(*)::int AS n FROM sign_in_events WHERE tenant_id = $1 AND outcome = 'refused' AND reason = $2`,
          [tenant.id, reason],
        )
      )[0].n,
    );

  beforeAll(async () => {
    h = await SignInHarness.start();
    const w = h.world();
    tenant = await w.tenant({ name: 'Lion City Primary' });
    await w.constituency(tenant.id, 'staff', ['google']);
    ada = await w.user([tenant.id], { email: 'ada@lioncity.example', constituencies: ['staff'] });
    const metadata = await (await fetch(`${h.issuer}/saml/${tenant.id}/metadata`)).text();
    idpCert = /<(?:ds:)?X509Certificate>([^<]+)</.exec(metadata)![1];
    idpEntityId = `${h.issuer}/saml/${tenant.id}`;
    sso = `${idpEntityId}/sso`;
  });

  afterAll(async () => {
    await h?.stop();
  });

  it('publishes the tenant’s IdP metadata: entity id, SSO and SLO endpoints (Redirect and POST), the signing certificate', async () => {
    const res = await fetch(`${h.issuer}/saml/${tenant.id}/metadata`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toContain('application/samlmetadata+xml');
    const xml = await res.text();
    expect(xml).toContain(`entityID="${idpEntityId}"`);
    expect(xml).toContain(`Binding="urn:oasis:names:tc:SAML:2.0:bindings:HTTP-Redirect" Location="${sso}"`);
    expect(xml).toContain(`Binding="urn:oasis:names:tc:SAML:2.0:bindings:HTTP-POST" Location="${sso}"`);
    expect(xml).toContain(
      `SingleLogoutService Binding="urn:oasis:names:tc:SAML:2.0:bindings:HTTP-Redirect" Location="${idpEntityId}/slo"`,
    );
    expect(xml).toContain('urn:oasis:names:tc:SAML:2.0:nameid-format:persistent');
    expect(Buffer.from(idpCert, 'base64').length).toBeGreaterThan(500);
    expect((await fetch(`${h.issuer}/saml/00000000-0000-4000-8000-000000000000/metadata`)).status).toBe(404);
    expect((await fetch(`${h.issuer}/saml/not-a-tenant/metadata`)).status).toBe(404);
  });

  it('logs a request to an address naming no school (unknown_tenant) in the service log only', async () => {
    const log = new SignInLog();
    try {
      const nowhere = '00000000-0000-4000-8000-000000000000';
      for (const path of [`${nowhere}/sso?SAMLRequest=x`, `${nowhere}/apps/${nowhere}/start`, 'x/slo?SAMLRequest=x']) {
        log.clear();
        const res = await new CookieBrowser().get(`${h.issuer}/saml/${path}`);
        expect({ path, status: res.status }).toEqual({ path, status: 404 });
        expect(log.refusals()).toEqual([
          expect.objectContaining({ protocol: 'saml', reason: 'unknown_tenant', tenant: undefined, app: undefined }),
        ]);
      }
      expect(await h.ds.query(`SELECT 1 FROM sign_in_events WHERE reason = 'unknown_tenant'`)).toEqual([]);
    } finally {
      log.restore();
    }
  });

  it('SP-initiated, HTTP-Redirect with a signed AuthnRequest: node-saml validates signature, audience, recipient, NotOnOrAfter, InResponseTo and exactly the claims', async () => {
    const p = await partner('redirect-signed', { signRequests: true });
    const { res } = await redirectStart(p.sp, 'deep/link?x=1');
    expect(res.status).toBe(200);
    expect(res.body).toContain(`action="${SP}/acs"`);
    expect(hidden(res.body, 'RelayState')).toBe('deep/link?x=1');
    const SAMLResponse = hidden(res.body, 'SAMLResponse')!;
    const xml = Buffer.from(SAMLResponse, 'base64').toString();
    expect(xml).toContain(`Destination="${SP}/acs"`);
    expect(xml).toContain(`Recipient="${SP}/acs"`);
    expect(
      xml.match(/<ds:SignatureMethod Algorithm="http:\/\/www.w3.org\/2001\/04\/xmldsig-more#rsa-sha256"\/>/g),
    ).toHaveLength(2);
    const { profile } = await p.sp.validatePostResponseAsync({ SAMLResponse });
    const nameId = persistentNameId(tenant.id, p.app.id, ada.id);
    expect(profile).toMatchObject({
      issuer: idpEntityId,
      nameID: nameId,
      nameIDFormat: 'urn:oasis:names:tc:SAML:2.0:nameid-format:persistent',
    });
    expect(profile!.attributes).toEqual({
      [`${CLAIMS_NS}/emailaddress`]: ada.email,
      [`${CLAIMS_NS}/name`]: ada.name,
      'urn:edu/school': 'Lion City Primary',
      'urn:edu/groups': 'Staff',
    });
    const notOnOrAfter = new Date(/NotOnOrAfter="([^"]+)"/.exec(xml)![1]).getTime();
    expect(notOnOrAfter - Date.now()).toBeGreaterThan(200_000);
    expect(notOnOrAfter - Date.now()).toBeLessThanOrEqual(300_000);
    // InResponseTo: node-saml remembered its request once; the same response again is refused.
    await expect(p.sp.validatePostResponseAsync({ SAMLResponse })).rejects.toThrow(/InResponseTo/);
    const [row] = await h.ds.query(
      `SELECT outcome, user_id FROM sign_in_events WHERE tenant_id = $1 AND app_id = $2 ORDER BY created_at DESC LIMIT 1`,
      [tenant.id, p.app.id],
    );
    expect(row).toEqual({ outcome: 'success', user_id: ada.id });
  });

  it('single logout: the app’s signed LogoutRequest gets a signed LogoutResponse at its sign_out_url that node-saml accepts; an unsigned one is refused', async () => {
    const p = await partner('logout', { signRequests: true });
    const { res } = await redirectStart(p.sp);
    const { profile } = await p.sp.validatePostResponseAsync({ SAMLResponse: hidden(res.body, 'SAMLResponse')! });
    const logoutUrl = await p.sp.getLogoutUrlAsync(profile!, 'bye', {});
    const requestId = /ID="([^"]+)"/.exec(
      inflateRawSync(Buffer.from(new URL(logoutUrl).searchParams.get('SAMLRequest')!, 'base64')).toString(),
    )![1];
    const out = await new CookieBrowser().get(logoutUrl);
    expect(out.status).toBe(200);
    expect(out.body).toContain(`action="${SP}/logout"`);
    expect(hidden(out.body, 'RelayState')).toBe('bye');
    const xml = Buffer.from(hidden(out.body, 'SAMLResponse')!, 'base64').toString();
    expect(xml).toContain('urn:oasis:names:tc:SAML:2.0:status:Success');
    expect(xml).toContain(`InResponseTo="${requestId}"`);
    expect(xml).toContain(`Destination="${SP}/logout"`);
    // node-saml checks InResponseTo only on login responses: its signature check of a LogoutResponse runs without it.
    const checker = testSp({
      entityId: p.entityId,
      replyUrl: `${SP}/acs`,
      ssoUrl: sso,
      idpCert,
      idpEntityId,
      validateInResponseTo: 'never',
    });
    expect(
      await checker.sp.validatePostResponseAsync({ SAMLResponse: hidden(out.body, 'SAMLResponse')! }),
    ).toMatchObject({ loggedOut: true });
    const forged = Buffer.from(xml.replace('status:Success', 'status:Requester')).toString('base64');
    await expect(checker.sp.validatePostResponseAsync({ SAMLResponse: forged })).rejects.toThrow();
    const unsigned = testSp({ entityId: p.entityId, replyUrl: `${SP}/acs`, ssoUrl: sso, idpCert, idpEntityId });
    const before = await refusals('saml_request_unsigned');
    expect((await new CookieBrowser().get(await unsigned.sp.getLogoutUrlAsync(profile!, '', {}))).status).toBe(400);
    expect(await refusals('saml_request_unsigned')).toBe(before + 1);
  });

  it('SP-initiated, HTTP-POST binding; the NameID is persistent per app (another app sees another one); the app’s relay_state when none is sent', async () => {
    const p = await partner('post', { binding: 'HTTP-POST' });
    await h.ds.query(`UPDATE apps SET saml = jsonb_set(saml, '{relay_state}', '"/home"') WHERE id = $1`, [p.app.id]);
    const form = await p.sp.getAuthorizeFormAsync('');
    const SAMLRequest = hidden(form, 'SAMLRequest')!;
    const browser = new CookieBrowser();
    const res = await journey(
      browser,
      browser.request(sso, {
        method: 'POST',
        headers: FORM_HEADERS,
        body: new URLSearchParams({ SAMLRequest }).toString(),
      }),
    );
    expect(hidden(res.body, 'RelayState')).toBe('/home');
    const { profile } = await p.sp.validatePostResponseAsync({ SAMLResponse: hidden(res.body, 'SAMLResponse')! });
    expect(profile!.nameID).toBe(persistentNameId(tenant.id, p.app.id, ada.id));
    expect(profile!.nameID).not.toBe(persistentNameId(tenant.id, (await partner('other')).app.id, ada.id));
  });

  it('IdP-initiated: the school’s link signs the person in and posts an unsolicited response (no InResponseTo) with the app’s relay_state', async () => {
    const p = await partner('unsolicited');
    await h.ds.query(`UPDATE apps SET saml = jsonb_set(saml, '{relay_state}', '"/shelf"') WHERE id = $1`, [p.app.id]);
    const browser = new CookieBrowser();
    const res = await journey(browser, browser.get(`${idpEntityId}/apps/${p.app.id}/start`));
    expect(res.body).toContain(`action="${SP}/acs"`);
    expect(hidden(res.body, 'RelayState')).toBe('/shelf');
    const SAMLResponse = hidden(res.body, 'SAMLResponse')!;
    expect(Buffer.from(SAMLResponse, 'base64').toString()).not.toContain('InResponseTo');
    // An SP that accepts unsolicited responses (node-saml: validateInResponseTo ifPresent) validates it.
    const sp = testSp({
      entityId: p.entityId,
      replyUrl: `${SP}/acs`,
      ssoUrl: sso,
      idpCert,
      idpEntityId,
      validateInResponseTo: 'ifPresent',
    }).sp;
    expect((await sp.validatePostResponseAsync({ SAMLResponse })).profile).toMatchObject({
      nameID: persistentNameId(tenant.id, p.app.id, ada.id),
    });
    // Unknown or undeployed apps, unknown schools: a page, no sign-in.
    const other = await h.world().tenant({ name: 'Elsewhere' });
    for (const url of [
      `${idpEntityId}/apps/00000000-0000-4000-8000-000000000000/start`,
      `${idpEntityId}/apps/not-an-id/start`,
      `${h.issuer}/saml/${other.id}/apps/${p.app.id}/start`,
      `${h.issuer}/saml/x/apps/${p.app.id}/start`,
    ]) {
      const refused = await new CookieBrowser().get(url);
      expect({ url, status: refused.status, location: refused.location }).toEqual({
        url,
        status: 404,
        location: undefined,
      });
    }
  });

  it('NameID is the e-mail address when the app asks for that format', async () => {
    const p = await partner('email', { identifierFormat: 'urn:oasis:names:tc:SAML:1.1:nameid-format:emailAddress' });
    const { res } = await redirectStart(p.sp);
    const { profile } = await p.sp.validatePostResponseAsync({ SAMLResponse: hidden(res.body, 'SAMLResponse')! });
    expect(profile).toMatchObject({
      nameID: ada.email,
      nameIDFormat: 'urn:oasis:names:tc:SAML:1.1:nameid-format:emailAddress',
    });
  });

  it('the completion is used once, in the browser that started it', async () => {
    const p = await partner('once');
    const browser = new CookieBrowser();
    let res = await browser.get(await p.sp.getAuthorizeUrlAsync('', undefined, {}));
    h.upstream.nextPerson = { sub: 'g-ada-saml', email: ada.email, email_verified: true };
    for (let i = 0; i < 20 && res.location; i++) res = await browser.get(res.location);
    const choice = providerChoice(res.body, 'google')!;
    res = await browser.request(`${h.issuer}${choice.action}`, {
      method: 'POST',
      headers: FORM_HEADERS,
      body: choice.body,
    });
    while (nextStop(res) && !nextStop(res)!.includes('/saml/complete')) res = await browser.get(nextStop(res)!);
    const complete = nextStop(res)!;
    const stranger = await new CookieBrowser().get(complete);
    expect(stranger.status).toBe(400);
    expect(stranger.body).not.toContain('SAMLResponse');
    // The stranger's attempt used up the pending request: the person starts again.
    expect((await browser.get(complete)).status).toBe(400);
  });

  describe('refusals (each a page, never a response to the app, and a row of the sign-in log)', () => {
    const sendRedirect = async (xml: string, extra: Record<string, string> = {}) =>
      new CookieBrowser().get(
        `${sso}?${new URLSearchParams({ SAMLRequest: deflateRawSync(Buffer.from(xml)).toString('base64'), ...extra })}`,
      );
    const authnRequest = (issuer: string, o: { acs?: string; id?: string; inner?: string } = {}) =>
      `<samlp:AuthnRequest xmlns:samlp="urn:oasis:names:tc:SAML:2.0:protocol" xmlns:saml="urn:oasis:names:tc:SAML:2.0:assertion" ID="${o.id ?? '_r1'}" Version="2.0" IssueInstant="${new Date().toISOString()}" Destination="${sso}" AssertionConsumerServiceURL="${o.acs ?? `${SP}/acs`}" ProtocolBinding="urn:oasis:names:tc:SAML:2.0:bindings:HTTP-POST"><saml:Issuer>${issuer}</saml:Issuer>${o.inner ?? ''}</samlp:AuthnRequest>`;

    it('an unsigned AuthnRequest from an app whose metadata says it signs them', async () => {
      const signing = await partner('must-sign', { signRequests: true });
      const unsigned = testSp({ entityId: signing.entityId, replyUrl: `${SP}/acs`, ssoUrl: sso, idpCert, idpEntityId });
      const before = await refusals('saml_request_unsigned');
      const res = await new CookieBrowser().get(await unsigned.sp.getAuthorizeUrlAsync('', undefined, {}));
      expect(res.status).toBe(400);
      expect(res.location).toBeUndefined();
      expect(await refusals('saml_request_unsigned')).toBe(before + 1);
    });

    it('an AuthnRequest signed with a key that is not the one in the app’s metadata (Redirect and POST)', async () => {
      const signing = await partner('wrong-key', { signRequests: true });
      const before = await refusals('saml_signature_invalid');
      const impostor = testSp({
        entityId: signing.entityId,
        replyUrl: `${SP}/acs`,
        ssoUrl: sso,
        idpCert,
        idpEntityId,
        signRequests: true,
      });
      expect((await new CookieBrowser().get(await impostor.sp.getAuthorizeUrlAsync('', undefined, {}))).status).toBe(
        400,
      );
      const postImpostor = testSp({
        entityId: signing.entityId,
        replyUrl: `${SP}/acs`,
        ssoUrl: sso,
        idpCert,
        idpEntityId,
        signRequests: true,
        binding: 'HTTP-POST',
      });
      const SAMLRequest = hidden(await postImpostor.sp.getAuthorizeFormAsync(''), 'SAMLRequest')!;
      const res = await new CookieBrowser().request(sso, {
        method: 'POST',
        headers: FORM_HEADERS,
        body: new URLSearchParams({ SAMLRequest }).toString(),
      });
      expect(res.status).toBe(400);
      expect(await refusals('saml_signature_invalid')).toBe(before + 2);
    });

    it('an AssertionConsumerServiceURL that is not the app’s reply_url', async () => {
      const p = await partner('acs');
      const before = await refusals('saml_acs_mismatch');
      const res = await sendRedirect(authnRequest(p.entityId, { acs: 'https://evil.example/acs' }));
      expect(res.status).toBe(400);
      expect(await refusals('saml_acs_mismatch')).toBe(before + 1);
    });

    it('a DTD with entity expansion, a comment in the Issuer or NameID, an unknown app, garbage', async () => {
      const p = await partner('xml');
      const before = await refusals('saml_request_invalid');
      const laughs = `<?xml version="1.0"?><!DOCTYPE r [<!ENTITY a "aaaaaaaaaa"><!ENTITY b "&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;">]>${authnRequest(`${p.entityId}&b;`)}`;
      expect((await sendRedirect(laughs)).status).toBe(400);
      const commented = authnRequest(`${p.entityId}<!---->`);
      expect((await sendRedirect(commented)).status).toBe(400);
      const nameIdComment = authnRequest(p.entityId, {
        inner: `<saml:Subject><saml:NameID>ada@lioncity.example<!-- -->.evil.example</saml:NameID></saml:Subject>`,
      });
      expect((await sendRedirect(nameIdComment)).status).toBe(400);
      expect((await new CookieBrowser().get(`${sso}?SAMLRequest=not-deflate`)).status).toBe(400);
      // Malformed shapes are pages too, never a 500: repeated parameters, a JSON body, no message at all, a bad completion.
      for (const res of [
        await new CookieBrowser().get(`${sso}?SAMLRequest=a&SAMLRequest=b&RelayState=x&RelayState=y`),
        await new CookieBrowser().request(sso, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ SAMLRequest: { x: 1 } }),
        }),
        await new CookieBrowser().get(`${idpEntityId}/slo`),
        await new CookieBrowser().get(`${h.issuer}/saml/complete?state=a&state=b&code=c`),
        await new CookieBrowser().get(`${h.issuer}/saml/complete`),
      ]) {
        expect({ url: res.url, status: res.status }).toEqual({ url: res.url, status: 400 });
      }
      expect(await refusals('saml_request_invalid')).toBe(before + 7);
      const unknown = await refusals('saml_unknown_app');
      expect((await sendRedirect(authnRequest('https://unknown.example/sp'))).status).toBe(400);
      expect(await refusals('saml_unknown_app')).toBe(unknown + 1);
    });

    it('XML signature wrapping: a signed request hidden inside another one, or a signature over another element', async () => {
      const p = await partner('wrap', { signRequests: true, binding: 'HTTP-POST' });
      const signed = inflateRawSync(
        Buffer.from(hidden(await p.sp.getAuthorizeFormAsync(''), 'SAMLRequest')!, 'base64'),
      ).toString();
      const inner = signed.replace(/^<\?xml[^>]*\?>/, '');
      const wrapped = authnRequest(p.entityId, {
        id: '_evil',
        acs: `${SP}/acs`,
        inner: `<samlp:Extensions>${inner}</samlp:Extensions>`,
      });
      const moved = signed.replace(/(<samlp:AuthnRequest[^>]*ID=")([^"]+)"/, '$1_other"');
      const post = (xml: string) =>
        new CookieBrowser().request(sso, {
          method: 'POST',
          headers: FORM_HEADERS,
          body: new URLSearchParams({ SAMLRequest: Buffer.from(xml).toString('base64') }).toString(),
        });
      // The request as signed is accepted (on to the sign-in), so what refuses the others is what was done to them.
      expect((await post(signed)).location).toContain('/oidc/auth?');
      const before = await refusals('saml_request_invalid');
      for (const xml of [wrapped, moved]) expect((await post(xml)).status).toBe(400);
      expect(await refusals('saml_request_invalid')).toBe(before + 2);
    });
  });

  describe('metadata_url: fetched through the SSRF guard, within its size limit, else metadata_xml', () => {
    let server: Server;
    let served = '';
    let metadataUrl = '';

    beforeAll(async () => {
      server = createServer((_req, res) =>
        res.writeHead(200, { 'content-type': 'application/samlmetadata+xml' }).end(served),
      );
      await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
      metadataUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/metadata`;
    });

    afterAll(async () => {
      h.apps[0].get(SamlSpMetadata).usePolicy({ allowHttp: true, allowPrivate: true, allowedPorts: 'any' });
      await new Promise((r) => server.close(r));
    });

    /** An app whose metadata_xml says it does not sign, while its metadata_url serves `signing`'s metadata, which says it does. */
    async function appWithUrl(name: string) {
      const signing = testSp({
        entityId: `${SP}/${name}`,
        replyUrl: `${SP}/acs`,
        ssoUrl: sso,
        idpCert,
        idpEntityId,
        signRequests: true,
      });
      const unsigned = testSp({ entityId: `${SP}/${name}`, replyUrl: `${SP}/acs`, ssoUrl: sso, idpCert, idpEntityId });
      const app = await samlApp(`${SP}/${name}`, unsigned.metadata, { metadata_url: `${metadataUrl}?app=${name}` });
      return { signing, unsigned, app, signingMetadata: signing.metadata };
    }

    it('the fetched metadata rules: an unsigned request is refused because metadata_url says the app signs, a signed one goes on', async () => {
      const a = await appWithUrl('by-url');
      served = a.signingMetadata;
      const before = await refusals('saml_request_unsigned');
      expect((await new CookieBrowser().get(await a.unsigned.sp.getAuthorizeUrlAsync('', undefined, {}))).status).toBe(
        400,
      );
      expect(await refusals('saml_request_unsigned')).toBe(before + 1);
      expect(
        (await new CookieBrowser().get(await a.signing.sp.getAuthorizeUrlAsync('', undefined, {}))).location,
      ).toContain('/oidc/auth?');
    });

    it('an answer over 256 KiB, or not SAML metadata, or with a DTD, is not used: metadata_xml is', async () => {
      // Each answer would refuse the unsigned request were it used (it says the app signs, or is no metadata at all).
      const answers = [
        (m: string) => m.replace('</', `${' '.repeat(300 * 1024)}</`),
        () => '<html/>',
        (m: string) => `<!DOCTYPE x [<!ENTITY e "e">]>${m.replace(/^<\?xml[^>]*\?>/, '')}`,
      ];
      for (const [i, answer] of answers.entries()) {
        const a = await appWithUrl(`bad-answer-${i}`);
        served = answer(a.signingMetadata);
        expect(
          (await new CookieBrowser().get(await a.unsigned.sp.getAuthorizeUrlAsync('', undefined, {}))).location,
        ).toContain('/oidc/auth?');
      }
    });

    it('a metadata_url at a private address under the production rule is never fetched: the sign-in is refused and logged', async () => {
      h.apps[0].get(SamlSpMetadata).usePolicy({ allowHttp: true, allowPrivate: false, allowedPorts: 'any' });
      const a = await appWithUrl('private');
      served = a.signingMetadata;
      const before = await refusals('saml_metadata_url_blocked');
      const res = await new CookieBrowser().get(await a.signing.sp.getAuthorizeUrlAsync('', undefined, {}));
      expect(res.status).toBe(400);
      expect(res.location).toBeUndefined();
      expect(await refusals('saml_metadata_url_blocked')).toBe(before + 1);
    });
  });

  // Last: it rotates the SAML key of the shared database.
  it('key rotation: the staged certificate is in the metadata beside the active one, and what the new key signs verifies with the certificates read during the rotation', async () => {
    const store = new SigningKeyStore(h.ds, new KeyEncryption(h.env.KEY_ENCRYPTION_KEY), 0);
    const before = await new SamlCredentials(store).current();
    await store.stage('saml');
    const during = await new SamlCredentials(store).current();
    expect(during.certificate).toBe(before.certificate);
    expect(during.published).toHaveLength(2);
    const stagedCert = during.published.find((c) => c !== before.certificate)!;
    const metadata = metadataIdp(h.issuer, tenant.id, during).getMetadata();
    expect(metadata).toContain(before.certificate);
    expect(metadata).toContain(stagedCert);
    await store.rotate('saml', 60_000);
    const after = await new SamlCredentials(store).current();
    expect(after.certificate).toBe(stagedCert);
    expect(after.published).toEqual(expect.arrayContaining([before.certificate, stagedCert]));
    // An SP that read the metadata during the rotation trusts both: the new key's response verifies.
    const p = await partner('rotation');
    const sp = testSp({
      entityId: p.entityId,
      replyUrl: `${SP}/acs`,
      ssoUrl: sso,
      idpCert: during.published,
      idpEntityId,
      validateInResponseTo: 'never',
    }).sp;
    const app = (await h.ds.query(`SELECT saml FROM apps WHERE id = $1`, [p.app.id]))[0].saml;
    const SAMLResponse = await loginResponse({
      issuer: h.issuer,
      tenantId: tenant.id,
      app,
      credentials: after,
      nameId: 'n-1',
      nameIdFormat: 'urn:oasis:names:tc:SAML:2.0:nameid-format:persistent',
      sessionIndex: '_s',
      attributes: [],
    });
    expect((await sp.validatePostResponseAsync({ SAMLResponse })).profile).toMatchObject({
      nameID: 'n-1',
      issuer: idpEntityId,
    });
    // One that trusts only the old certificate refuses it.
    const stale = testSp({
      entityId: p.entityId,
      replyUrl: `${SP}/acs`,
      ssoUrl: sso,
      idpCert: before.certificate,
      idpEntityId,
      validateInResponseTo: 'never',
    }).sp;
    await expect(stale.validatePostResponseAsync({ SAMLResponse })).rejects.toThrow(/signature/i);
  });
});
