import { randomUUID } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TenantEntity } from '@edu/persistence';
import { expectError, testBrand, TEST_SVG } from '@edu/testing';
import { BUTTON_GRAPHIC_MAX_BYTES } from '@edu/content-checks';
import { runProvisionCli } from '../src/provisioning/provision-command';
import { FORMERLY_ACCEPTED, ORDINARY, VECTORS } from './fixtures/svg/corpus';
import { bearer, IdentityHarness } from './support/harness';

/*
 * The SVG image rule over HTTP: every unsafe SVG sent to a field that takes an image is answered
 * 400 validation_failed naming that field, and nothing is written; ordinary logos are stored and
 * served back byte for byte.
 */

const oauth2Provider = (buttonGraphic: string) => ({
  button_graphic: buttonGraphic,
  provision_just_in_time: true,
  type: 'oauth2',
  oauth2: {
    client_id: 'school-idp',
    authorization_url: 'https://idp.school.example/authorize',
    token_url: 'https://idp.school.example/token',
    scope: ['openid'],
    oidc_discovery: 'https://idp.school.example/.well-known/openid-configuration',
    jwks_url: 'https://idp.school.example/jwks',
  },
});

type Brand = ReturnType<typeof testBrand>;
const brandWith = (change: (b: Brand) => void): Brand => {
  const brand = testBrand();
  change(brand);
  return brand;
};
const newDomain = () => `portal-${randomUUID().slice(0, 8)}.alpha.example`;

describe('SVG images are refused unless safe (vanity domains, identity providers, provisioning)', () => {
  let h: IdentityHarness;
  let A: TenantEntity;
  let write: string;
  let read: string;
  let domain: string;
  let providerId: string;

  beforeAll(async () => {
    h = await IdentityHarness.start();
    A = await h.world().tenant({ name: 'Alpha', licences: ['data-operations', 'advanced'] });
    write = await h.tenantToken(A.id, ['id.tenant-core.write']);
    read = await h.tenantToken(A.id, ['id.tenant-core.readonly']);
    domain = newDomain();
    await h
      .http()
      .post('/vanity-domains')
      .set(bearer(write))
      .send({ domain, brand_configuration: testBrand() })
      .expect(201);
    providerId = (
      await h.http().post('/identity-providers').set(bearer(write)).send(oauth2Provider(TEST_SVG)).expect(201)
    ).body.id;
  });

  afterAll(async () => {
    await h?.stop();
  });

  /** 400 validation_failed naming `field` with the SVG rule's problem, and no table changed. */
  async function expectRefused(method: 'post' | 'patch', path: string, body: object, field: string): Promise<void> {
    const before = await h.snapshot();
    const res = await h.http()[method](path).set(bearer(write)).send(body);
    expectError(res, 400, 'validation_failed');
    const problems = (res.body.fields as { field: string; problems: string[] }[]).find(
      (f) => f.field === field,
    )?.problems;
    if (!problems) throw new Error(`expected field "${field}" among ${JSON.stringify(res.body.fields)}`);
    expect(problems.join('; ')).toMatch(/is not (an allowed|a well-formed) SVG/);
    expect(await h.snapshot()).toEqual(before);
  }

  describe.each(VECTORS)('%s', (_name, vector) => {
    it('is refused by POST and PATCH of vanity domains, naming the field', async () => {
      await expectRefused(
        'post',
        '/vanity-domains',
        { domain: newDomain(), brand_configuration: brandWith((b) => (b.logo.light = vector)) },
        'brand_configuration.logo.light',
      );
      await expectRefused(
        'patch',
        `/vanity-domains/${domain}`,
        { brand_configuration: brandWith((b) => (b.background.image = vector)) },
        'brand_configuration.background.image',
      );
    });

    it('is refused by POST and PATCH of identity providers, naming the field', async () => {
      await expectRefused('post', '/identity-providers', oauth2Provider(vector), 'button_graphic');
      await expectRefused('patch', `/identity-providers/${providerId}`, { button_graphic: vector }, 'button_graphic');
    });
  });

  it.each(FORMERLY_ACCEPTED)('refuses %s in every image field of a brand', async (_name, vector) => {
    await expectRefused(
      'post',
      '/vanity-domains',
      { domain: newDomain(), brand_configuration: brandWith((b) => (b.logo.dark = vector)) },
      'brand_configuration.logo.dark',
    );
    await expectRefused(
      'patch',
      `/vanity-domains/${domain}`,
      { brand_configuration: brandWith((b) => (b.logo.light = vector)) },
      'brand_configuration.logo.light',
    );
    await expectRefused(
      'post',
      '/vanity-domains',
      { domain: newDomain(), brand_configuration: brandWith((b) => (b.background.image = vector)) },
      'brand_configuration.background.image',
    );
  });

  describe.each(ORDINARY)('the ordinary logo %s', (_file, logo) => {
    it('is stored and served back exactly as sent by a vanity domain', async () => {
      const created = newDomain();
      const served = async () =>
        (await h.http().get(`/vanity-domains/${created}`).set(bearer(read)).expect(200)).body[0].brand_configuration;
      await h
        .http()
        .post('/vanity-domains')
        .set(bearer(write))
        .send({ domain: created, brand_configuration: brandWith((b) => (b.logo.light = logo)) })
        .expect(201);
      expect((await served()).logo.light).toBe(logo);
      await h
        .http()
        .patch(`/vanity-domains/${created}`)
        .set(bearer(write))
        .send({ brand_configuration: brandWith((b) => (b.background.image = logo)) })
        .expect(200);
      expect((await served()).background.image).toBe(logo);
    });

    it('is stored and served back exactly as sent as a provider button', async () => {
      expect(Buffer.byteLength(logo)).toBeLessThanOrEqual(BUTTON_GRAPHIC_MAX_BYTES);
      const created = (
        await h.http().post('/identity-providers').set(bearer(write)).send(oauth2Provider(logo)).expect(201)
      ).body;
      expect(created.button_graphic).toBe(logo);
      const [served] = (await h.http().get(`/identity-providers/${created.id}`).set(bearer(read)).expect(200)).body;
      expect(served.button_graphic).toBe(logo);
    });
  });

  describe('the provisioning file (same DTOs)', () => {
    let dir: string;
    beforeAll(() => (dir = mkdtempSync(join(tmpdir(), 'provision-svg-'))));
    afterAll(() => rmSync(dir, { recursive: true, force: true }));

    it('refuses an unsafe logo and button graphic, naming both records, and writes nothing', async () => {
      const file = JSON.parse(readFileSync(join(__dirname, '../../../tools/provision/demo.json'), 'utf8'));
      file.vanity_domains[0].brand_configuration.logo.light = FORMERLY_ACCEPTED[0][1];
      file.identity_providers[0].button_graphic = FORMERLY_ACCEPTED[2][1];
      const path = join(dir, 'file.json');
      writeFileSync(path, JSON.stringify(file));
      const before = await h.snapshot();
      const err: string[] = [];
      const code = await runProvisionCli(
        [path],
        { DATABASE_URL: h.db.url },
        { log: () => undefined, error: (l) => err.push(l) },
      );
      expect(code).toBe(1);
      expect(err.join('\n')).toContain(
        'vanity_domains[0].brand_configuration.logo.light: is not an allowed SVG image: href must point inside the document',
      );
      expect(err.join('\n')).toContain(
        'identity_providers[0].button_graphic: is not an allowed SVG image: <animate> may not animate "href"',
      );
      expect(await h.snapshot()).toEqual(before);
    });
  });
});
