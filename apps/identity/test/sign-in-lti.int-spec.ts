import { request as httpRequest } from 'node:http';
import { decodeJwt, generateKeyPair, SignJWT } from 'jose';
import { TEST_SVG, untilClockReaches, type CreatedApp } from '@edu/testing';
import {
  CookieBrowser,
  FORM_HEADERS,
  launchForm,
  LTI_ROLES,
  SchoolAdmin,
  TestLms,
  type BrowserResponse,
  type LaunchTamper,
  type LmsLaunch,
} from '@edu/testing/sign-in';
import type { TenantEntity } from '@edu/persistence';
import { subjectFor } from '@edu/sign-in';
import { identifierIdFor } from '@edu/sign-in';
import { LtiKeys } from '@edu/sign-in';
import { uri } from './support/harness';
import { RP_REDIRECT, SignInHarness, type RelyingParty } from './support/sign-in-harness';

const TARGET = 'https://app.example/lti/launch';
const DEPLOYMENT = 'deployment-1';
const CLAIM = 'https://purl.imsglobal.org/spec/lti/claim';

/** A launch's steps as the browser makes them: login initiation, the LMS, the launch form post. */
interface Launch {
  browser: CookieBrowser;
  /** The answer to the launch form post (a redirect to the app, or a refusal page). */
  res: BrowserResponse;
  form?: { action: string; body: string };
}

describe('sign-in: LTI 1.3 launches from a school’s learning platform', () => {
  let h: SignInHarness;
  let school: TenantEntity;
  let partner: CreatedApp;
  let rp: RelyingParty;
  let lms: TestLms;
  let admin: SchoolAdmin;
  let provider: string;

  const loginUrl = (id = provider, replica = 0) => `${h.replica(replica)}/signin/lti/${id}/login`;
  const lastLog = async () => (await admin.signIns('limit=1'))[0];

  /** The LMS launches `who`: the browser goes through login initiation and the LMS to the launch form post. */
  async function launch(
    who: LmsLaunch,
    o: { extra?: Record<string, string>; browser?: CookieBrowser; replica?: number } = {},
  ): Promise<Launch> {
    const browser = o.browser ?? new CookieBrowser();
    const init = await browser.get(lms.initiation(loginUrl(provider, o.replica), who, o.extra));
    if (init.status !== 302 && init.status !== 303) return { browser, res: init };
    const atLms = await browser.get(init.location as string);
    expect(atLms.status).toBe(200);
    const f = launchForm(atLms.body)!;
    const form = { action: f.action, body: new URLSearchParams(f.fields).toString() };
    const res = await browser.request(form.action, { method: 'POST', headers: FORM_HEADERS, body: form.body });
    return { browser, res, form };
  }

  /** The app's own sign-in in the launched browser: its authorization request, through the portal, to its redirect URI. */
  async function appSignIn(browser: CookieBrowser) {
    const { url, checks } = await h.authorizationUrl(rp);
    let res = await browser.get(url.href);
    while (res.location && res.status >= 300 && res.status < 400 && !res.location.startsWith(RP_REDIRECT))
      res = await browser.get(res.location);
    return { res, checks, browser };
  }

  async function refusedWith(l: Launch, status: number, reason: string, text: RegExp): Promise<void> {
    expect(l.res.status).toBe(status);
    expect(l.res.headers.get('content-type')).toMatch(/^text\/html/);
    expect(l.res.body).toMatch(text);
    expect(l.res.body).not.toMatch(/at .*\.(js|ts):\d+/);
    expect(l.res.body).toContain('<p>Go back to your learning platform and open the activity again.</p>');
    expect(l.res.headers.get('set-cookie') ?? '').not.toContain('signin_lti');
    expect(await lastLog()).toMatchObject({ outcome: 'refused', reason, provider_id: provider, user_id: null });
  }

  async function addProvider(settings: Record<string, unknown>, jit = true): Promise<string> {
    const res = await admin.call('POST', '/identity-providers', {
      button_graphic: TEST_SVG,
      provision_just_in_time: jit,
      type: 'lti1.3',
      lti: settings,
    });
    expect(res.status).toBe(201);
    return (res.body as { id: string }).id;
  }

  beforeAll(async () => {
    h = await SignInHarness.start({ replicas: 2 });
    lms = await TestLms.start({ clientId: 'edu-tool', deploymentId: DEPLOYMENT });
    const w = h.world();
    school = await w.tenant({ name: 'Kampong Primary' });
    partner = await w.app({ type: 'developer', id: (await w.developer()).id }, 'Maths Garden');
    await w.deploy(partner.app.id, school.id, []);
    rp = await h.relyingParty(partner);
    admin = await SchoolAdmin.start(w, h.issuer, school.id, {
      read: uri('id.tenant-core.readonly'),
      write: uri('id.tenant-core.write'),
    });
    provider = await addProvider(lms.settings());
    // guardians sorts before students: a learner still joins students, as the roles say.
    await admin.constituency('guardians', [provider], true);
    await admin.constituency('students', [provider], true);
    await admin.constituency('teachers', [provider], false);
  });

  afterAll(async () => {
    await lms?.stop();
    await h?.stop();
  });

  describe('a launch signs the person in to the app it names', () => {
    it('sends the browser to the LMS with state, nonce and the launch URL, as LTI 1.3 asks', async () => {
      const browser = new CookieBrowser();
      const res = await browser.get(lms.initiation(loginUrl(), { sub: 'lms-x', targetLinkUri: TARGET }));
      expect(res.status).toBe(303);
      const sent = new URL(res.location as string);
      expect(`${sent.origin}${sent.pathname}`).toBe(`${lms.issuer}/auth`);
      expect(Object.fromEntries(sent.searchParams)).toMatchObject({
        scope: 'openid',
        response_type: 'id_token',
        response_mode: 'form_post',
        prompt: 'none',
        client_id: 'edu-tool',
        redirect_uri: `${h.replica(0)}/signin/lti/${provider}/launch`,
        login_hint: 'lms-x',
        lti_message_hint: 'resource-link-1',
      });
      expect(sent.searchParams.get('state')).toMatch(/^[\w-]{40,}$/);
      expect(sent.searchParams.get('nonce')).toMatch(/^[\w-]{30,}$/);
    });

    it('accepts the login initiation as a form post too', async () => {
      const q = new URL(lms.initiation(loginUrl(), { sub: 'lms-x', targetLinkUri: TARGET })).searchParams;
      const res = await new CookieBrowser().request(loginUrl(), {
        method: 'POST',
        headers: FORM_HEADERS,
        body: q.toString(),
      });
      expect(res.status).toBe(303);
      expect(res.location).toMatch(new RegExp(`^${lms.issuer}/auth\\?`));
    });

    it('provisions a new learner just in time into students, and the app gets its ID token without the person being asked again', async () => {
      const l = await launch({
        sub: 'lms-learner-1',
        email: 'new.learner@kampong.example',
        name: 'New Learner',
        roles: [LTI_ROLES.learner],
        targetLinkUri: TARGET,
      });
      expect(l.res.status).toBe(303);
      expect(l.res.location).toBe(TARGET);
      const j = await appSignIn(l.browser);
      expect(j.res.location).toMatch(new RegExp(`^${RP_REDIRECT}\\?code=`));
      const claims = (await h.exchange(rp, j)).claims()!;
      const [user] = await h.ds.query(`SELECT id FROM users WHERE email = 'new.learner@kampong.example'`);
      expect(claims).toMatchObject({
        iss: h.issuer,
        aud: partner.clientId,
        sub: subjectFor(school.id, user.id),
        tenant_id: school.id,
        constituencies: ['students'],
      });
      const links = await h.ds.query(`SELECT constituencies, idp_identifiers FROM tenant_users WHERE user_id = $1`, [
        user.id,
      ]);
      expect(links).toEqual([
        { constituencies: ['students'], idp_identifiers: [{ id: identifierIdFor('lms-learner-1'), idp_id: provider }] },
      ]);
      expect(await lastLog()).toMatchObject({
        outcome: 'success',
        reason: 'provisioned',
        provider_id: provider,
        app_id: partner.app.id,
        user_id: user.id,
      });
    });

    it('provisions a mentor into guardians, as the roles table says', async () => {
      const l = await launch({
        sub: 'lms-mentor-1',
        email: 'new.mentor@kampong.example',
        name: 'New Mentor',
        roles: [LTI_ROLES.mentor],
        targetLinkUri: TARGET,
      });
      const claims = (await h.exchange(rp, await appSignIn(l.browser))).claims()!;
      expect(claims).toMatchObject({ email: 'new.mentor@kampong.example', constituencies: ['guardians'] });
    });

    it('maps a known teacher by their LTI sub, on the other replica, and a launch signs in once', async () => {
      const ada = await h.world().user([school.id], {
        email: 'ada@kampong.example',
        constituencies: ['teachers'],
        idpIdentifiers: [{ id: identifierIdFor('lms-ada'), idp_id: provider }],
      });
      const l = await launch({ sub: 'lms-ada', roles: [LTI_ROLES.instructor], targetLinkUri: TARGET }, { replica: 1 });
      expect(l.res.location).toBe(TARGET);
      const j = await appSignIn(l.browser);
      expect((await h.exchange(rp, j)).claims()).toMatchObject({
        sub: subjectFor(school.id, ada.id),
        constituencies: ['teachers'],
      });
      // The binding was used: a second authorization request in a fresh browser with the same cookie meets the portal.
      const again = new CookieBrowser();
      for (const [k, v] of l.browser.cookies('127.0.0.1')) if (k === 'signin_lti') again.cookies('127.0.0.1').set(k, v);
      const second = await appSignIn(again);
      expect(second.res.status).toBe(200);
      expect(second.res.body).toContain('Find your school');
    });

    it('signs in only to the apps the launch names: another app’s sign-in in that browser meets the portal, and the launch still serves its app', async () => {
      const w = h.world();
      const library = await w.app({ type: 'developer', id: (await w.developer()).id }, 'Library');
      await h.ds.query(`UPDATE apps SET oauth2 = $2 WHERE id = $1`, [
        library.app.id,
        { redirect_uris: ['https://library.example/callback'] },
      ]);
      await w.deploy(library.app.id, school.id, []);
      const libraryRp = await h.relyingParty(library);
      const l = await launch({ sub: 'lms-learner-1', roles: [LTI_ROLES.learner], targetLinkUri: TARGET });
      const { url } = await h.authorizationUrl(libraryRp, { redirect_uri: 'https://library.example/callback' });
      let res = await l.browser.get(url.href);
      while (res.location && res.status >= 300 && res.status < 400) res = await l.browser.get(res.location);
      expect(res.status).toBe(200);
      expect(res.body).toContain('Find your school');
      const j = await appSignIn(l.browser);
      expect(j.res.location).toMatch(new RegExp(`^${RP_REDIRECT}\\?code=`));
    });

    it('a browser without the launch’s cookie is not signed in by it', async () => {
      const l = await launch({ sub: 'lms-learner-1', roles: [LTI_ROLES.learner], targetLinkUri: TARGET });
      expect(l.res.status).toBe(303);
      const other = await appSignIn(new CookieBrowser());
      expect(other.res.status).toBe(200);
      expect(other.res.location).toBeUndefined();
    });
  });

  describe('validate_lti_tokens_at_oidc_login', () => {
    const setValidate = async (on: boolean) =>
      expect(
        (
          await admin.call('PATCH', `/identity-providers/${provider}`, {
            lti: lms.settings({ validate_lti_tokens_at_oidc_login: on }),
          })
        ).status,
      ).toBe(200);
    // exp a second ago: inside the 5 s clock tolerance at the launch, past it at the app's sign-in.
    const nearlyExpired = { sub: 'lms-ada', roles: [LTI_ROLES.instructor], targetLinkUri: TARGET, lifetime: -1 };
    /** Until the launch's id_token is past its exp and the tolerance by the clock the service reads (this process's). */
    const untilPastTolerance = async (l: Launch) => {
      const { exp } = decodeJwt(new URLSearchParams(l.form?.body).get('id_token') ?? '');
      await untilClockReaches(((exp as number) + 5) * 1000);
    };

    afterAll(() => setValidate(false));

    it('on: the launch’s id_token is verified again at the app’s sign-in, and one expired since is refused there', async () => {
      await setValidate(true);
      const l = await launch(nearlyExpired);
      expect(l.res.location).toBe(TARGET);
      await untilPastTolerance(l);
      const j = await appSignIn(l.browser);
      expect(j.res.status).toBe(403);
      expect(j.res.body).toContain('Your launch from the learning platform is no longer valid');
      expect(await lastLog()).toMatchObject({
        outcome: 'refused',
        reason: 'lti_invalid_token',
        provider_id: provider,
        app_id: partner.app.id,
        user_id: null,
      });
    });

    it('off: the launch alone signs the person in (within the launch’s five minutes)', async () => {
      await setValidate(false);
      const l = await launch(nearlyExpired);
      expect(l.res.location).toBe(TARGET);
      await untilPastTolerance(l);
      const j = await appSignIn(l.browser);
      expect(j.res.location).toMatch(new RegExp(`^${RP_REDIRECT}\\?code=`));
      expect(await lastLog()).toMatchObject({ outcome: 'success', provider_id: provider, app_id: partner.app.id });
    });
  });

  describe('refusals, each with a clear page and a row in the sign-in log', () => {
    const tampered = (tamper: LaunchTamper) => async () => {
      lms.tamper = tamper;
      try {
        return await launch({
          sub: 'lms-forged',
          email: 'forged@kampong.example',
          roles: [LTI_ROLES.learner],
          targetLinkUri: TARGET,
        });
      } finally {
        lms.tamper = undefined;
      }
    };

    it.each([
      [
        'a wrong aud',
        tampered((p, sign) => sign({ ...p, aud: 'another-tool', azp: undefined })),
        403,
        'lti_invalid_token',
      ],
      [
        'a wrong azp',
        tampered((p, sign) => sign({ ...p, aud: ['edu-tool', 'another-tool'], azp: 'another-tool' })),
        403,
        'lti_client_mismatch',
      ],
      [
        'several audiences without azp',
        tampered((p, sign) => sign({ ...p, aud: ['edu-tool', 'another-tool'], azp: undefined })),
        403,
        'lti_client_mismatch',
      ],
      [
        'a wrong deployment_id',
        tampered((p, sign) => sign({ ...p, [`${CLAIM}/deployment_id`]: 'deployment-2' })),
        403,
        'lti_deployment_mismatch',
      ],
      ['a wrong issuer', tampered((p, sign) => sign({ ...p, iss: 'https://evil.example' })), 403, 'lti_invalid_token'],
      [
        'an expired token',
        tampered((p, sign) => sign({ ...p, iat: 1_000_000, exp: 1_000_100 })),
        403,
        'lti_invalid_token',
      ],
      [
        'another nonce',
        tampered((p, sign) => sign({ ...p, nonce: 'chosen-by-the-attacker' })),
        403,
        'lti_invalid_token',
      ],
      [
        'alg none',
        tampered(
          async (p) =>
            `${Buffer.from(JSON.stringify({ alg: 'none', typ: 'JWT' })).toString('base64url')}.${Buffer.from(JSON.stringify(p)).toString('base64url')}.`,
        ),
        403,
        'lti_invalid_token',
      ],
      [
        'HS256 with the public key as secret',
        tampered(async (p) =>
          new SignJWT(p)
            .setProtectedHeader({ alg: 'HS256', kid: 'lms-1' })
            .sign(new TextEncoder().encode(JSON.stringify(lms.settings()))),
        ),
        403,
        'lti_invalid_token',
      ],
      [
        'a key not in the platform’s JWKS',
        tampered(async (p) =>
          new SignJWT(p)
            .setProtectedHeader({ alg: 'RS256', kid: 'lms-1' })
            .sign((await generateKeyPair('RS256')).privateKey),
        ),
        403,
        'lti_invalid_token',
      ],
      [
        'a deep linking request',
        tampered((p, sign) => sign({ ...p, [`${CLAIM}/message_type`]: 'LtiDeepLinkingRequest' })),
        400,
        'lti_message_not_supported',
      ],
      ['an anonymous launch', tampered((p, sign) => sign({ ...p, sub: undefined })), 403, 'lti_invalid_token'],
    ])('refuses %s', async (_name, run, status, reason) => {
      await refusedWith(
        await run(),
        status,
        reason,
        /could not be verified|another tool|another deployment|not supported/,
      );
      expect(await h.ds.query(`SELECT id FROM users WHERE email = 'forged@kampong.example'`)).toEqual([]);
    });

    it('refuses a replayed id_token (the same form post again, on another replica)', async () => {
      const l = await launch({ sub: 'lms-learner-1', roles: [LTI_ROLES.learner], targetLinkUri: TARGET });
      expect(l.res.status).toBe(303);
      const replayAt = l.form!.action.replace(h.replica(0), h.replica(1));
      const replay = await new CookieBrowser().request(replayAt, {
        method: 'POST',
        headers: FORM_HEADERS,
        body: l.form!.body,
      });
      await refusedWith({ ...l, res: replay }, 403, 'lti_nonce_replayed', /already used/);
    });

    it('refuses a launch posted in another browser than the one that started the login (login CSRF), binding the login with a cookie', async () => {
      const mine = new CookieBrowser();
      const init = await mine.get(
        lms.initiation(loginUrl(), { sub: 'lms-learner-1', roles: [LTI_ROLES.learner], targetLinkUri: TARGET }),
      );
      expect(init.headers.get('set-cookie')).toMatch(
        new RegExp(
          `^signin_lti_state=[\\w-]+; Max-Age=600; Path=/signin/lti/${provider}/launch; Expires=[^;]+; HttpOnly; SameSite=Lax$`,
        ),
      );
      const f = launchForm((await mine.get(init.location as string)).body)!;
      // The attacker's own launch, posted from the victim's browser.
      const victim = new CookieBrowser();
      const res = await victim.request(f.action, {
        method: 'POST',
        headers: FORM_HEADERS,
        body: new URLSearchParams(f.fields).toString(),
      });
      await refusedWith({ browser: victim, res }, 400, 'lti_state_mismatch', /started in another browser/);
    });

    it('refuses a login initiation from another issuer or deployment, or for another client, before anyone is sent to the LMS', async () => {
      const before = lms.requests.length;
      const who = { sub: 'lms-x', targetLinkUri: TARGET };
      await refusedWith(
        await launch(who, { extra: { iss: 'https://other-lms.example' } }),
        403,
        'lti_issuer_mismatch',
        /Launch from another platform/,
      );
      await refusedWith(
        await launch(who, { extra: { lti_deployment_id: 'deployment-2' } }),
        403,
        'lti_deployment_mismatch',
        /Launch from another deployment/,
      );
      await refusedWith(
        await launch(who, { extra: { client_id: 'another-tool' } }),
        403,
        'lti_client_mismatch',
        /Launch for another tool/,
      );
      expect(lms.requests.length).toBe(before);
    });

    it('refuses a launch naming an address that is not one of the school’s apps (no open redirect)', async () => {
      for (const target of ['https://evil.example/lti', 'javascript:alert(1)', 'https://app.example.evil.example/']) {
        await refusedWith(
          await launch({ sub: 'lms-learner-1', roles: [LTI_ROLES.learner], targetLinkUri: target }),
          400,
          'lti_target_not_allowed',
          /not available at your school/,
        );
      }
    });

    it('refuses an unknown person with “not enrolled” when their roles name no constituency that provisions, creating no one', async () => {
      const l = await launch({
        sub: 'lms-new-teacher',
        email: 'new.teacher@kampong.example',
        roles: [LTI_ROLES.instructor],
        targetLinkUri: TARGET,
      });
      await refusedWith(l, 403, 'not_enrolled', /not enrolled/);
      expect(await h.ds.query(`SELECT id FROM users WHERE email = 'new.teacher@kampong.example'`)).toEqual([]);
    });

    it('refuses a state it did not issue, and a post without the id_token', async () => {
      const l = await launch({ sub: 'lms-learner-1', roles: [LTI_ROLES.learner], targetLinkUri: TARGET });
      const body = new URLSearchParams(l.form!.body);
      await l.browser
        .request(l.form!.action, { method: 'POST', headers: FORM_HEADERS, body: 'state=x' })
        .then((res) => refusedWith({ ...l, res }, 400, 'lti_bad_request', /did not send an id_token/));
      lms.next = { sub: 'lms-learner-1', roles: [LTI_ROLES.learner], targetLinkUri: TARGET };
      const fresh = await lms.sign(lms.claims(lms.next, 'a-nonce-never-sent'));
      const res = await l.browser.request(l.form!.action, {
        method: 'POST',
        headers: FORM_HEADERS,
        body: new URLSearchParams({ id_token: fresh, state: body.get('state') ?? '' }).toString(),
      });
      await refusedWith({ ...l, res }, 400, 'lti_state_unknown', /expired or was already used/);
    });

    it('answers an unknown provider or a malformed launch with a page, never a 500', async () => {
      for (const id of ['not-a-uuid', '00000000-0000-4000-8000-000000000000']) {
        const res = await new CookieBrowser().get(
          lms.initiation(`${h.issuer}/signin/lti/${id}/login`, { sub: 'x', targetLinkUri: TARGET }),
        );
        expect(res.status).toBe(404);
        expect(res.body).toContain('Unknown learning platform');
      }
      const missing = await new CookieBrowser().get(`${loginUrl()}?iss=${encodeURIComponent(lms.issuer)}`);
      expect(missing.status).toBe(400);
      expect(missing.body).toContain('did not send iss, login_hint and target_link_uri');
      const odd = await new CookieBrowser().request(`${h.issuer}/signin/lti/${provider}/launch`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: '{"id_token":{"a":1}}',
      });
      expect(odd.status).toBe(400);
      const junk = await new CookieBrowser().request(`${h.issuer}/signin/lti/${provider}/launch`, {
        method: 'POST',
        headers: FORM_HEADERS,
        body: 'id_token=not.a.jwt&state=abc',
      });
      expect(junk.status).toBe(403);
      expect(junk.body).toContain('could not be verified');
    });

    it('refuses a login initiation that reached another host name (the launch URL is built from the host the LMS used)', async () => {
      const url = new URL(lms.initiation(loginUrl(), { sub: 'lms-x', targetLinkUri: TARGET }));
      const res = await new Promise<{ status: number; body: string }>((resolve, reject) => {
        const req = httpRequest(
          {
            host: '127.0.0.1',
            port: url.port,
            path: `${url.pathname}${url.search}`,
            headers: { host: 'evil.example' },
          },
          (r) => {
            let body = '';
            r.on('data', (c: Buffer) => (body += c));
            r.on('end', () => resolve({ status: r.statusCode ?? 0, body }));
          },
        );
        req.on('error', reject);
        req.end();
      });
      expect(res.status).toBe(400);
      expect(res.body).toContain('Unknown sign-in address');
      expect(await lastLog()).toMatchObject({ outcome: 'refused', reason: 'unknown_host', provider_id: provider });
    });

    it('another school’s launch names only its own apps: an app deployed elsewhere is refused, in that school’s log only', async () => {
      const w = h.world();
      const other = await w.tenant({ name: 'Other School' });
      const otherAdmin = await SchoolAdmin.start(w, h.issuer, other.id, {
        read: uri('id.tenant-core.readonly'),
        write: uri('id.tenant-core.write'),
      });
      const res = await otherAdmin.call('POST', '/identity-providers', {
        button_graphic: TEST_SVG,
        provision_just_in_time: true,
        type: 'lti1.3',
        lti: lms.settings(),
      });
      expect(res.status).toBe(201);
      const theirs = (res.body as { id: string }).id;
      await otherAdmin.constituency('students', [theirs], true);
      // An app of our school only, on an origin of its own (test apps share https://app.example).
      const reading = await w.app({ type: 'developer', id: (await w.developer()).id }, 'Reading Room');
      await h.ds.query(`UPDATE apps SET oauth2 = $2 WHERE id = $1`, [
        reading.app.id,
        { redirect_uris: ['https://reading.example/callback'] },
      ]);
      await w.deploy(reading.app.id, school.id, []);
      const ours = await admin.signIns('limit=100');
      const browser = new CookieBrowser();
      const init = await browser.get(
        lms.initiation(loginUrl(theirs), {
          sub: 'lms-learner-1',
          email: 'someone@other.example',
          roles: [LTI_ROLES.learner],
          targetLinkUri: 'https://reading.example/lti',
        }),
      );
      const f = launchForm((await browser.get(init.location as string)).body)!;
      const launched = await browser.request(f.action, {
        method: 'POST',
        headers: FORM_HEADERS,
        body: new URLSearchParams(f.fields).toString(),
      });
      expect(launched.status).toBe(400);
      expect(launched.body).toContain('not available at your school');
      expect((await otherAdmin.signIns('limit=1'))[0]).toMatchObject({
        outcome: 'refused',
        reason: 'lti_target_not_allowed',
        provider_id: theirs,
      });
      expect(await admin.signIns('limit=100')).toEqual(ours);
      expect(await h.ds.query(`SELECT id FROM users WHERE email = 'someone@other.example'`)).toEqual([]);
    });

    it('a provider that is not an lti1.3 provider has no launch URLs', async () => {
      const oauth2 = await admin.call('POST', '/identity-providers', {
        button_graphic: TEST_SVG,
        provision_just_in_time: false,
        type: 'oauth2',
        oauth2: {
          client_id: 'x',
          authorization_url: `${lms.issuer}/auth`,
          token_url: `${lms.issuer}/token`,
          scope: ['openid'],
          oidc_discovery: `${lms.issuer}/.well-known/openid-configuration`,
          jwks_url: `${lms.issuer}/jwks`,
        },
      });
      expect(oauth2.status).toBe(201);
      const res = await new CookieBrowser().get(
        lms.initiation(loginUrl((oauth2.body as { id: string }).id), { sub: 'x', targetLinkUri: TARGET }),
      );
      expect(res.status).toBe(404);
      expect(res.body).toContain('Unknown learning platform');
    });

    it('refuses keys at a private address in production (the SSRF guard), without a request there', async () => {
      const keys = h.apps.map((a) => a.get(LtiKeys));
      keys.forEach((k) => k.usePolicy({ allowHttp: true, allowPrivate: false, allowedPorts: 'any' }));
      try {
        const before = lms.jwksRequests;
        const l = await launch({ sub: 'lms-learner-1', roles: [LTI_ROLES.learner], targetLinkUri: TARGET });
        await refusedWith(l, 502, 'lti_keys_unavailable', /keys cannot be read/);
        expect(lms.jwksRequests).toBe(before);
      } finally {
        keys.forEach((k) => k.usePolicy({ allowHttp: true, allowPrivate: true, allowedPorts: 'any' }));
      }
    });
  });
});

describe('sign-in: an LTI login initiation over https (behind the ingress)', () => {
  let h: SignInHarness;
  let lms: TestLms;
  let provider: string;

  beforeAll(async () => {
    h = await SignInHarness.start();
    // As main.ts does with TRUST_PROXY behind the ingress: X-Forwarded-Proto from loopback is believed.
    h.apps[0].set('trust proxy', 'loopback');
    lms = await TestLms.start({ clientId: 'edu-tool', deploymentId: DEPLOYMENT });
    const w = h.world();
    const school = await w.tenant({ name: 'Kampong Primary' });
    const admin = await SchoolAdmin.start(w, h.issuer, school.id, {
      read: uri('id.tenant-core.readonly'),
      write: uri('id.tenant-core.write'),
    });
    const res = await admin.call('POST', '/identity-providers', {
      button_graphic: TEST_SVG,
      provision_just_in_time: false,
      type: 'lti1.3',
      lti: lms.settings(),
    });
    provider = (res.body as { id: string }).id;
  });

  afterAll(async () => {
    await lms?.stop();
    await h?.stop();
  });

  it('binds the state with a Secure SameSite=None cookie, which the LMS’s cross-site form post carries back, and names the https launch URL', async () => {
    const url = lms.initiation(`${h.issuer}/signin/lti/${provider}/login`, { sub: 'lms-x', targetLinkUri: TARGET });
    const res = await fetch(url, { redirect: 'manual', headers: { 'x-forwarded-proto': 'https' } });
    expect(res.status).toBe(303);
    expect(res.headers.get('set-cookie')).toMatch(
      new RegExp(
        `^signin_lti_state=[\\w-]+; Max-Age=600; Path=/signin/lti/${provider}/launch; Expires=[^;]+; HttpOnly; Secure; SameSite=None$`,
      ),
    );
    expect(new URL(res.headers.get('location') as string).searchParams.get('redirect_uri')).toBe(
      `${h.issuer.replace('http:', 'https:')}/signin/lti/${provider}/launch`,
    );
  });
});
