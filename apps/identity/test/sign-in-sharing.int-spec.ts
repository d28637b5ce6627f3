import * as oidc from 'openid-client';
import { TEST_SVG, type CreatedApp, type WorldUser } from '@edu/testing';
import {
  CookieBrowser,
  FORM_HEADERS,
  launchForm,
  LTI_ROLES,
  SchoolAdmin,
  TestLms,
  type LmsLaunch,
} from '@edu/testing/sign-in';
import type { TenantEntity } from '@edu/persistence';
import { subjectFor } from '@edu/sign-in';
import { identifierIdFor } from '@edu/sign-in';
import { uri } from './support/harness';
import { activateSharing, putRoster } from './support/sharing-roster';
import { RP_REDIRECT, SignInHarness, type RelyingParty } from './support/sign-in-harness';

const TARGET = 'https://app.example/lti/launch';

/**
 * Data sharing at sign-in, over real HTTP with openid-client as the app: a person the school does
 * not share with the app is refused (a page and a `not_shared` row of the sign-in log, by the
 * upstream provider and by an LTI launch), a shared one signs in, and the claims obey `withhold`.
 */
describe('sign-in under data sharing: who may sign in to an app, and which claims it gets', () => {
  let h: SignInHarness;
  let school: TenantEntity;
  let partner: CreatedApp;
  let rp: RelyingParty;
  let admin: SchoolAdmin;
  let ada: WorldUser;
  let ben: WorldUser;
  let cy: WorldUser;

  const share = (spec: object) => activateSharing((m, p, b) => admin.call(m, p, b), school.id, partner.app.id, spec);
  const lastLog = async () => (await admin.signIns('limit=1'))[0];
  const upstream = (sub: string, email: string) => ({ sub, email, email_verified: true, name: `Upstream ${sub}` });
  const signIn = (who: WorldUser, params: Record<string, string> = {}) =>
    h.signIn(rp, upstream(`g-${who.email}`, who.email), { params: { tenant: school.id, ...params } });

  beforeAll(async () => {
    h = await SignInHarness.start();
    const w = h.world();
    school = await w.tenant({ name: 'Lion City Primary' });
    partner = await w.app({ type: 'developer', id: (await w.developer()).id }, 'Maths Garden');
    await w.deploy(partner.app.id, school.id, []);
    await w.constituency(school.id, 'staff', ['google']);
    ada = await w.user([school.id], { email: 'ada@lioncity.example', constituencies: ['staff'] });
    ben = await w.user([school.id], { email: 'ben@lioncity.example', constituencies: ['staff'] });
    cy = await w.user([school.id], { email: 'cy@lioncity.example', constituencies: ['staff'] });
    // Ada teaches maths (the roster spells her address in capitals), Ben art; Cy is in no roster.
    await putRoster(h.ds, school.id, {
      classes: [
        {
          id: 'cls-maths',
          people: [
            { id: 'usr-ada', email: 'Ada@LionCity.example', role: 'teacher' },
            { id: 'usr-s1', email: 's1@lioncity.example' },
          ],
        },
        { id: 'cls-art', people: [{ id: 'usr-ben', email: 'ben@lioncity.example', role: 'teacher' }] },
      ],
    });
    rp = await h.relyingParty(partner);
    admin = await SchoolAdmin.start(w, h.issuer, school.id, {
      read: uri('id.tenant-core.readonly'),
      write: uri('id.tenant-core.write'),
    });
  });

  afterAll(async () => {
    await h?.stop();
  });

  it('without a sharing, everyone signs in as today, with every claim', async () => {
    const claims = (await h.exchange(rp, await signIn(ben))).claims()!;
    expect(claims).toMatchObject({ sub: subjectFor(school.id, ben.id), email: ben.email, email_verified: true });
    expect(await lastLog()).toMatchObject({ outcome: 'success', user_id: ben.id });
  });

  it('refuses a person the school does not share with the app (a page, a not_shared row), and signs in a shared one', async () => {
    await share({ mode: 'classes', classes: ['cls-maths'] });
    for (const who of [ben, cy]) {
      const refused = await signIn(who);
      expect(refused.res.status).toBe(403);
      expect(refused.res.location).toBeUndefined();
      expect(refused.res.headers.get('content-type')).toMatch(/^text\/html/);
      expect(refused.res.body).toContain('Not shared with this app');
      expect(refused.res.body).toContain('Lion City Primary does not share your information with Maths Garden');
      expect(await lastLog()).toMatchObject({
        outcome: 'refused',
        reason: 'not_shared',
        app_id: partner.app.id,
        provider_id: 'google',
        user_id: who.id,
      });
    }
    const j = await signIn(ada);
    expect(j.res.location).toMatch(new RegExp(`^${RP_REDIRECT}\\?code=`));
    expect((await h.exchange(rp, j)).claims()).toMatchObject({ sub: subjectFor(school.id, ada.id), email: ada.email });
    expect(await lastLog()).toMatchObject({ outcome: 'success', user_id: ada.id });
  });

  it('with contact withheld: no email or email_verified claim in the ID token or at userinfo', async () => {
    await share({ mode: 'classes', classes: ['cls-maths'], withhold: ['contact'] });
    const tokens = await h.exchange(rp, await signIn(ada));
    const claims = tokens.claims()!;
    expect(claims).toMatchObject({ sub: subjectFor(school.id, ada.id), name: ada.name, nickname: ada.nickname });
    expect(claims).toMatchObject({ tenant_id: school.id, constituencies: ['staff'] });
    expect(claims).not.toHaveProperty('email');
    expect(claims).not.toHaveProperty('email_verified');
    const info = await oidc.fetchUserInfo(rp.config, tokens.access_token, claims.sub);
    expect(info).toMatchObject({ sub: claims.sub, name: ada.name, tenant_id: school.id });
    expect(info).not.toHaveProperty('email');
    expect(info).not.toHaveProperty('email_verified');
  });

  it('with preferred_names withheld: no nickname; mode all with a withhold shares everyone', async () => {
    await share({ mode: 'all', withhold: ['preferred_names', 'identifiers'] });
    const claims = (await h.exchange(rp, await signIn(cy))).claims()!;
    expect(claims).toMatchObject({ sub: subjectFor(school.id, cy.id), name: cy.name, email: cy.email });
    expect(claims).not.toHaveProperty('nickname');
  });

  it('a person the school stops sharing loses the account: their refresh token and userinfo are refused', async () => {
    await share({ mode: 'classes', classes: ['cls-maths'] });
    const tokens = await h.exchange(
      rp,
      await signIn(ada, { scope: 'openid tenant offline_access', prompt: 'consent' }),
    );
    expect(tokens.refresh_token).toBeDefined();
    await share({ mode: 'classes', classes: ['cls-art'] });
    await expect(oidc.refreshTokenGrant(rp.config, tokens.refresh_token!)).rejects.toMatchObject({
      error: 'invalid_grant',
    });
    await expect(oidc.fetchUserInfo(rp.config, tokens.access_token, tokens.claims()!.sub)).rejects.toBeDefined();
    // Shared again: the same grant works again (nothing was deleted, the school decides).
    await share({ mode: 'all' });
    expect((await oidc.fetchUserInfo(rp.config, tokens.access_token, tokens.claims()!.sub)).sub).toBe(
      subjectFor(school.id, ada.id),
    );
  });

  describe('LTI 1.3 launches', () => {
    let lms: TestLms;
    let provider: string;

    /** The LMS launches `who`, then the app's own sign-in runs in the launched browser. */
    async function launchThenSignIn(who: LmsLaunch) {
      const browser = new CookieBrowser();
      const init = await browser.get(lms.initiation(`${h.issuer}/signin/lti/${provider}/login`, who));
      const f = launchForm((await browser.get(init.location as string)).body)!;
      const body = new URLSearchParams(f.fields).toString();
      const launched = await browser.request(f.action, { method: 'POST', headers: FORM_HEADERS, body });
      expect([launched.status, launched.location]).toEqual([303, TARGET]);
      const { url, checks } = await h.authorizationUrl(rp);
      let res = await browser.get(url.href);
      while (res.location && res.status >= 300 && res.status < 400 && !res.location.startsWith(RP_REDIRECT))
        res = await browser.get(res.location);
      return { res, checks, browser };
    }

    beforeAll(async () => {
      lms = await TestLms.start({ clientId: 'edu-tool', deploymentId: 'deployment-1' });
      const created = await admin.call('POST', '/identity-providers', {
        button_graphic: TEST_SVG,
        provision_just_in_time: false,
        type: 'lti1.3',
        lti: lms.settings(),
      });
      provider = (created.body as { id: string }).id;
      const staff = { allowed_identity_providers: ['google', provider] };
      expect((await admin.call('PATCH', `/tenants/${school.id}/constituencies/staff`, staff)).status).toBe(200);
      for (const [who, sub] of [
        [ada, 'lms-ada'],
        [ben, 'lms-ben'],
      ] as const)
        await h.ds.query(`UPDATE tenant_users SET idp_identifiers = $3::jsonb WHERE tenant_id = $1 AND user_id = $2`, [
          school.id,
          who.id,
          JSON.stringify([{ id: identifierIdFor(sub), idp_id: provider }]),
        ]);
    });

    afterAll(() => lms?.stop());

    it('a launched person the school does not share is refused at the app’s sign-in; a shared one gets minimised claims', async () => {
      await share({ mode: 'classes', classes: ['cls-maths'], withhold: ['contact'] });
      const refused = await launchThenSignIn({ sub: 'lms-ben', roles: [LTI_ROLES.instructor], targetLinkUri: TARGET });
      expect(refused.res.status).toBe(403);
      expect(refused.res.body).toContain('Not shared with this app');
      expect(await lastLog()).toMatchObject({
        outcome: 'refused',
        reason: 'not_shared',
        provider_id: provider,
        app_id: partner.app.id,
        user_id: ben.id,
      });
      const j = await launchThenSignIn({ sub: 'lms-ada', roles: [LTI_ROLES.instructor], targetLinkUri: TARGET });
      expect(j.res.location).toMatch(new RegExp(`^${RP_REDIRECT}\\?code=`));
      const claims = (await h.exchange(rp, j)).claims()!;
      expect(claims).toMatchObject({ sub: subjectFor(school.id, ada.id), tenant_id: school.id });
      expect(claims).not.toHaveProperty('email');
      expect(await lastLog()).toMatchObject({ outcome: 'success', provider_id: provider, user_id: ada.id });
    });
  });
});
