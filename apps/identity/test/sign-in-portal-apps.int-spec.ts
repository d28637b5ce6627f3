import { request as httpRequest } from 'node:http';
import { AppEntity, type AppSamlSettings, type TenantEntity } from '@edu/persistence';
import { generateClientId, generateClientSecret, hashClientSecret } from '@edu/signing';
import { CookieBrowser, FORM_HEADERS, nextStop, providerChoice } from '@edu/testing/sign-in';
import { persistentNameId } from '@edu/sign-in';
import { PAGE_CSP } from '@edu/sign-in';
import { brandedDomain, lionCityBrand } from './support/brands';
import { SignInHarness } from './support/sign-in-harness';
import { testSp } from './support/saml-sp';

const SP = 'https://sp.example';
const DOMAIN = 'portal.lioncity.example';
const SHARED_DOMAIN = 'portal.district.example';
const HOSTILE = `<img src=x onerror="alert(1)"> Tom & Jerry's "Lab"`;
const unescape = (s: string) => s.replace(/&#(\d+);/g, (_m, c: string) => String.fromCharCode(Number(c)));
const hidden = (body: string, name: string) =>
  unescape(new RegExp(`name="${name}" value="([^"]*)"`).exec(body)?.[1] ?? '');

interface Page {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

/** The tiles of a school's app page: app id, link and name as shown. */
const byApp = <T extends { app: string }>(tiles: T[]) => [...tiles].sort((a, b) => a.app.localeCompare(b.app));
const tilesOf = (body: string) =>
  [
    ...body.matchAll(
      /<a class="provider app-tile" href="([^"]*)" data-app="([^"]*)">.*?<span class="label">([^<]*)<\/span><\/a>/g,
    ),
  ].map((m) => ({ app: m[2], href: unescape(m[1]), name: unescape(m[3]) }));

/**
 * The school's page of apps (IdP-initiated SSO from the portal): public, branded, each tile
 * starting one app's sign-in (its sign_on_url, else the school's SAML start).
 */
describe('sign-in: a school’s page of apps', () => {
  let h: SignInHarness;
  let school: TenantEntity;
  let other: TenantEntity;
  let idpCert: string;
  const apps: Record<string, AppEntity> = {};

  /** A `saml` app (deployed at `at`), its settings for the service provider `sp.example/<key>`. */
  async function samlApp(
    key: string,
    name: string,
    at: TenantEntity[],
    extra: Partial<AppSamlSettings> = {},
    metadata = '<EntityDescriptor/>',
  ): Promise<AppEntity> {
    const w = h.world();
    const saml: AppSamlSettings = {
      metadata_url: `${SP}/${key}/metadata`,
      metadata_xml: metadata,
      entity_id: `${SP}/${key}`,
      reply_url: `${SP}/${key}/acs`,
      sign_on_url: `${SP}/${key}/login`,
      relay_state: null,
      sign_out_url: `${SP}/${key}/logout`,
      claims: [],
      ...extra,
    };
    const app = await h.ds.getRepository(AppEntity).save({
      name,
      ownerType: 'developer',
      ownerId: (await w.developer()).id,
      authType: 'saml' as const,
      oauth2: null,
      saml,
      clientId: generateClientId('app'),
      clientSecretHash: hashClientSecret(generateClientSecret()),
    });
    for (const t of at) await w.deploy(app.id, t.id, []);
    return app;
  }

  /** A GET with the Host header a vanity domain's browser sends (the harness listens on 127.0.0.1). */
  function atHost(host: string, path: string): Promise<Page> {
    const { port } = new URL(h.issuer);
    return new Promise((resolve, reject) => {
      const req = httpRequest({ host: '127.0.0.1', port, path, headers: { host } }, (res) => {
        let body = '';
        res.setEncoding('utf8');
        res.on('data', (c: string) => (body += c));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
      });
      req.on('error', reject);
      req.end();
    });
  }

  const get = async (path: string): Promise<Page> => {
    const res = await fetch(`${h.issuer}${path}`, { redirect: 'manual' });
    return { status: res.status, headers: Object.fromEntries(res.headers), body: await res.text() };
  };

  beforeAll(async () => {
    h = await SignInHarness.start();
    const w = h.world();
    school = await w.tenant({ name: 'Lion City Primary' });
    other = await w.tenant({ name: 'Harbour High' });
    await w.constituency(school.id, 'staff', ['google']);
    const metadata = await (await fetch(`${h.issuer}/saml/${school.id}/metadata`)).text();
    idpCert = /<(?:ds:)?X509Certificate>([^<]+)</.exec(metadata)![1];
    apps.library = await samlApp('library', 'Lion City Digital Library', [school]);
    apps.started = await samlApp('started', 'Timetable', [school], { sign_on_url: '' });
    apps.hostile = await samlApp('hostile', HOSTILE, [school], { sign_on_url: 'javascript:alert(1)' });
    apps.both = await samlApp('both', 'Atlas', [school, other]);
    apps.notDeployed = await samlApp('nowhere', 'Undeployed Reader', []);
    apps.otherSchool = await samlApp('harbour', 'Harbour Lab', [other]);
    const oauth = await w.app({ type: 'developer', id: (await w.developer()).id }, 'Maths Quest');
    await w.deploy(oauth.app.id, school.id, []);
    await brandedDomain(h.ds, school.id, DOMAIN, lionCityBrand());
    await brandedDomain(h.ds, school.id, SHARED_DOMAIN, { ...lionCityBrand(), portal_name: 'District Schools' }, [
      school.id,
      other.id,
    ]);
  });

  afterAll(async () => {
    await h?.stop();
  });

  const start = (tenant: TenantEntity, app: AppEntity) => `${h.issuer}/saml/${tenant.id}/apps/${app.id}/start`;

  it('lists exactly the school’s deployed SAML apps: sign_on_url when the app has one, else the school’s start link; nothing of other schools or undeployed apps', async () => {
    const res = await get(`/signin/schools/${school.id}/apps`);
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(res.headers['content-security-policy']).toBe(PAGE_CSP);
    expect(res.headers['cache-control']).toBe('no-store');
    // In name order (the database's collation decides where the hostile name's punctuation goes).
    expect(byApp(tilesOf(res.body))).toEqual(
      byApp([
        { app: apps.both.id, href: `${SP}/both/login`, name: 'Atlas' },
        { app: apps.library.id, href: `${SP}/library/login`, name: 'Lion City Digital Library' },
        { app: apps.started.id, href: start(school, apps.started), name: 'Timetable' },
        { app: apps.hostile.id, href: start(school, apps.hostile), name: HOSTILE },
      ]),
    );
    expect(
      tilesOf(res.body)
        .map((t) => t.name)
        .filter((n) => n !== HOSTILE),
    ).toEqual(['Atlas', 'Lion City Digital Library', 'Timetable']);
    expect(res.body).not.toMatch(/Undeployed Reader|Harbour Lab|Maths Quest/);
    expect(res.body).toContain('<h1>Apps at Lion City Primary</h1>');
    const harbour = tilesOf((await get(`/signin/schools/${other.id}/apps`)).body);
    expect(harbour.map((t) => t.name)).toEqual(['Atlas', 'Harbour Lab']);
  });

  it('escapes a hostile app name and never links a javascript: sign_on_url', async () => {
    const { body } = await get(`/signin/schools/${school.id}/apps`);
    expect(body).not.toContain('<img src=x');
    expect(body).not.toContain('javascript:');
    expect(body).toContain('&#60;img src=x onerror=&#34;alert(1)&#34;&#62; Tom &#38; Jerry&#39;s &#34;Lab&#34;');
    expect(body).not.toMatch(/<script/i);
  });

  it('the start tile signs the person in and posts an unsolicited response the app validates', async () => {
    const entityId = `${SP}/started`;
    const sso = `${h.issuer}/saml/${school.id}/sso`;
    const idpEntityId = `${h.issuer}/saml/${school.id}`;
    const made = testSp({
      entityId,
      replyUrl: `${SP}/started/acs`,
      ssoUrl: sso,
      idpCert,
      idpEntityId,
      validateInResponseTo: 'ifPresent',
    });
    await h.ds.query(`UPDATE apps SET saml = jsonb_set(saml, '{metadata_xml}', to_jsonb($2::text)) WHERE id = $1`, [
      apps.started.id,
      made.metadata,
    ]);
    const ada = await h.world().user([school.id], { email: 'ada@lioncity.example', constituencies: ['staff'] });
    h.upstream.nextPerson = { sub: 'g-ada-tiles', email: ada.email, email_verified: true };
    const tile = tilesOf((await get(`/signin/schools/${school.id}/apps`)).body).find((t) => t.app === apps.started.id)!;
    const browser = new CookieBrowser();
    let res = await browser.get(tile.href);
    for (let i = 0; i < 20 && res.location; i++) res = await browser.get(res.location);
    const choice = providerChoice(res.body, 'google')!;
    res = await browser.request(`${h.issuer}${choice.action}`, {
      method: 'POST',
      headers: FORM_HEADERS,
      body: choice.body,
    });
    for (let i = 0; i < 20 && nextStop(res); i++) res = await browser.get(nextStop(res)!);
    expect(res.body).toContain(`action="${SP}/started/acs"`);
    const { profile } = await made.sp.validatePostResponseAsync({ SAMLResponse: hidden(res.body, 'SAMLResponse') });
    expect(profile).toMatchObject({
      issuer: idpEntityId,
      nameID: persistentNameId(school.id, apps.started.id, ada.id),
    });
  });

  it('unknown, malformed or oversized school ids, and /signin/apps off a vanity domain: the branded 404 page, never a 500', async () => {
    const paths = [
      '/signin/schools/00000000-0000-4000-8000-000000000000/apps',
      '/signin/schools/not-a-school/apps',
      `/signin/schools/${school.id.toUpperCase()}x/apps`,
      `/signin/schools/${'a'.repeat(2000)}/apps`,
      "/signin/schools/'%3B--/apps",
      '/signin/schools/%00/apps',
      '/signin/apps',
    ];
    for (const path of paths) {
      const res = await get(path);
      expect({ path, status: res.status, csp: res.headers['content-security-policy'] }).toEqual({
        path,
        status: 404,
        csp: PAGE_CSP,
      });
      expect(res.body).toContain('<h1>Unknown school</h1>');
    }
    const branded = await atHost(DOMAIN, '/signin/schools/00000000-0000-4000-8000-000000000000/apps');
    expect(branded.status).toBe(404);
    expect(branded.body).toContain(`/signin/brand/${DOMAIN}/brand.css`);
  });

  it('on the school’s vanity domain: /signin/apps is its page in its brand; another school’s page there is a 404', async () => {
    const res = await atHost(DOMAIN, '/signin/apps');
    expect(res.status).toBe(200);
    expect(res.body).toContain(`/signin/brand/${DOMAIN}/brand.css`);
    expect(res.body).toContain(`/signin/brand/${DOMAIN}/logo/light`);
    expect(res.body).toContain('<title>Lion City Schools: apps at Lion City Primary</title>');
    // The start links go to the issuer's host, where the SAML identity provider is.
    expect(
      tilesOf(res.body)
        .map((t) => t.href)
        .sort(),
    ).toEqual(
      [`${SP}/both/login`, `${SP}/library/login`, start(school, apps.started), start(school, apps.hostile)].sort(),
    );
    expect((await atHost(DOMAIN, `/signin/schools/${school.id}/apps`)).status).toBe(200);
    expect((await atHost(DOMAIN, `/signin/schools/${other.id}/apps`)).status).toBe(404);
  });

  it('a domain of several schools has no single page of apps, but each of its schools’ pages; unregistered hosts are 404s', async () => {
    expect((await atHost(SHARED_DOMAIN, '/signin/apps')).status).toBe(404);
    const harbour = await atHost(SHARED_DOMAIN, `/signin/schools/${other.id}/apps`);
    expect(harbour.status).toBe(200);
    expect(harbour.body).toContain(`/signin/brand/${SHARED_DOMAIN}/brand.css`);
    expect((await atHost('unregistered.example', '/signin/apps')).status).toBe(404);
  });

  it('on the issuer’s host the page wears the brand of the school’s own vanity domain (the first by name); a school without one is plain', async () => {
    const res = await get(`/signin/schools/${school.id}/apps`);
    expect(res.body).toContain(`/signin/brand/${SHARED_DOMAIN}/brand.css`);
    expect((await get(`/signin/schools/${other.id}/apps`)).body).not.toContain('/signin/brand/');
  });

  it('sets no cookie and shows nothing about anyone, even after a sign-in at the school', async () => {
    const res = await get(`/signin/schools/${school.id}/apps`);
    expect(res.headers['set-cookie']).toBeUndefined();
    expect(res.body).not.toContain('ada@lioncity.example');
  });
});
