import type { TenantEntity } from '@edu/persistence';
import type { WorldUser } from '@edu/testing';
import { bearer, IdentityHarness, uri } from './support/harness';
import { activateSharing, putRoster } from './support/sharing-roster';

/**
 * The Identity API's people reads under data sharing, over real HTTP and PostgreSQL: an app
 * whose deployment has a sharing sees only the people it shares (lists omit the others, single
 * reads and changes answer 404 like unknown) and none of the withheld fields; an app without
 * sharing sees everyone as before.
 */
describe('Identity API: people an app reads obey its deployment’s data sharing', () => {
  let h: IdentityHarness;
  let school: TenantEntity;
  let appId: string;
  let app: string;
  let plain: string;
  let operator: string;
  let ada: WorldUser;
  let ben: WorldUser;
  let cy: WorldUser;

  const share = (spec: object) =>
    activateSharing(
      async (method, path, body) => {
        const res = await h
          .http()
          [method.toLowerCase() as 'put' | 'post'](path)
          .set(bearer(operator))
          .send(body as object);
        return { status: res.status, body: res.body };
      },
      school.id,
      appId,
      spec,
    );
  const get = (token: string, path: string) => h.http().get(path).set(bearer(token));
  const emails = (rows: { email?: string; user_email?: string }[]) => rows.map((r) => r.email ?? r.user_email);

  /** A tenant-context token of a partner app deployed at the school with the people scopes; its app id too. */
  async function deployedApp(name: string): Promise<{ id: string; token: string }> {
    const w = h.world();
    const created = await w.app({ type: 'developer', id: (await w.developer()).id }, name);
    await w.deploy(created.app.id, school.id, [uri('id.tenant-core.readonly'), uri('id.tenant-core.write')]);
    const res = await h.http().post('/oauth/token').type('form').send({
      grant_type: 'client_credentials',
      client_id: created.clientId,
      client_secret: created.clientSecret,
      tenant_id: school.id,
    });
    expect(res.status).toBe(200);
    return { id: created.app.id, token: res.body.access_token as string };
  }

  beforeAll(async () => {
    h = await IdentityHarness.start();
    const w = h.world();
    school = await w.tenant({ name: 'Lion City Primary' });
    ada = await w.user([school.id], { email: 'ada@lioncity.example', constituencies: [] });
    ben = await w.user([school.id], { email: 'ben@lioncity.example', constituencies: [] });
    cy = await w.user([school.id], { email: 'cy@lioncity.example', constituencies: [] });
    await h.ds.query(`UPDATE tenant_users SET idp_identifiers = $2::jsonb WHERE user_id = $1`, [
      ada.id,
      JSON.stringify([{ id: ada.id, idp_id: 'google' }]),
    ]);
    await putRoster(h.ds, school.id, {
      classes: [
        { id: 'cls-maths', people: [{ id: 'usr-ada', email: 'ADA@lioncity.example', role: 'teacher' }] },
        { id: 'cls-art', people: [{ id: 'usr-ben', email: ben.email, role: 'teacher' }] },
      ],
    });
    ({ id: appId, token: app } = await deployedApp('Maths Garden'));
    plain = (await deployedApp('School Console')).token;
    operator = await h.operatorToken();
  });

  afterAll(() => h?.stop());

  it('without a sharing the app sees every person of the school, with every field', async () => {
    const users = await get(app, '/users').expect(200);
    expect(emails(users.body)).toEqual([ada.email, ben.email, cy.email]);
    expect(users.body[0]).toEqual({
      id: ada.id,
      email: ada.email,
      name: ada.name,
      nickname: ada.nickname,
      picture: ada.picture,
      idp_identifiers: [{ id: ada.id, idp_id: 'google' }],
    });
    expect(emails((await get(app, `/tenants/${school.id}/users`).expect(200)).body)).toHaveLength(3);
  });

  it('shared by class: lists omit the people not shared; reading, changing or removing one of them is a 404 like unknown', async () => {
    await share({ mode: 'classes', classes: ['cls-maths'] });
    expect(emails((await get(app, '/users').expect(200)).body)).toEqual([ada.email]);
    expect(emails((await get(app, `/tenants/${school.id}/users`).expect(200)).body)).toEqual([ada.email]);
    expect((await get(app, `/users/${ada.email}`).expect(200)).body).toHaveLength(1);
    for (const who of [ben, cy]) {
      const unknown = await get(app, `/users/${who.email}`);
      expect([unknown.status, unknown.body.error]).toEqual([404, 'not_found']);
      expect(unknown.body).toEqual((await get(app, '/users/nobody@lioncity.example')).body);
    }
    const patch = await h.http().patch(`/users/${ben.email}`).set(bearer(app)).send({ name: 'Renamed' });
    expect(patch.status).toBe(404);
    const membership = await h
      .http()
      .patch(`/tenants/${school.id}/users/${ben.email}`)
      .set(bearer(app))
      .send({ constituencies: [] });
    expect(membership.status).toBe(404);
    expect((await h.http().delete(`/users/${cy.email}`).set(bearer(app))).status).toBe(404);
    expect((await h.http().delete(`/tenants/${school.id}/users/${cy.email}`).set(bearer(app))).status).toBe(404);
    // Nothing changed, and an app of a deployment without sharing sees everyone as before.
    expect(emails((await get(plain, '/users').expect(200)).body)).toEqual([ada.email, ben.email, cy.email]);
    expect((await get(plain, `/users/${ben.email}`).expect(200)).body[0].name).toBe(ben.name);
  });

  it('withheld fields are absent: contact (the address, so people cannot be named by it), preferred names, identifiers', async () => {
    await share({ mode: 'classes', classes: ['cls-maths'], withhold: ['contact', 'preferred_names', 'identifiers'] });
    const users = await get(app, '/users').expect(200);
    expect(users.body).toEqual([{ id: ada.id, name: ada.name, picture: ada.picture }]);
    const records = await get(app, `/tenants/${school.id}/users`).expect(200);
    expect(records.body).toEqual([
      { tenant_id: school.id, constituencies: [], user: { id: ada.id, name: ada.name, picture: ada.picture } },
    ]);
    // Answering by address would confirm an address the school withholds: 404 like unknown.
    expect((await get(app, `/users/${ada.email}`)).status).toBe(404);
    expect((await h.http().patch(`/users/${ada.email}`).set(bearer(app)).send({ name: 'X' })).status).toBe(404);
  });

  it('mode all with a withhold: everyone, without the withheld fields', async () => {
    await share({ mode: 'all', withhold: ['preferred_names'] });
    const users = await get(app, '/users').expect(200);
    expect(emails(users.body)).toEqual([ada.email, ben.email, cy.email]);
    expect(users.body.every((u: object) => !('nickname' in u))).toBe(true);
    const one = await get(app, `/users/${cy.email}`).expect(200);
    expect(one.body).toEqual([{ id: cy.id, email: cy.email, name: cy.name, picture: cy.picture, idp_identifiers: [] }]);
  });
});
