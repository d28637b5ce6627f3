import type { NestExpressApplication } from '@nestjs/platform-express';
import { RosterHarness, SCOPE, type TenantSetup } from './support/harness';
import { expectImsxError } from './support/imsx';
import { loadFixture } from './support/load';
import { COLLECTION_CASES, SINGLE_CASES } from './support/operations';
import { districtFixture } from './support/roster-fixture';

/** One representative path per route of the service (collections and singles). */
const ROSTER_PATHS = [
  ...COLLECTION_CASES.filter((c) => !c.path.startsWith('demographics')).map((c) => c.path),
  ...SINGLE_CASES.filter((c) => c.path !== 'demographics').map((c) => `${c.path}/${c.id}`),
];
const DEMOGRAPHICS_PATHS = ['demographics', 'demographics/usr-s-01'];

describe('OneRoster access rules', () => {
  const h = new RosterHarness();
  let D: TenantSetup;

  beforeAll(async () => {
    await h.start();
    D = await h.tenant({ rootOrg: 'org-d1' });
    await loadFixture(h, D, districtFixture());
  });

  afterAll(() => h.stop());

  it('covers all 41 rostering reads', () => {
    expect(ROSTER_PATHS.length + DEMOGRAPHICS_PATHS.length).toBe(41);
  });

  it('refuses a request without a token with 401 unauthorisedrequest', async () => {
    for (const path of [...ROSTER_PATHS, ...DEMOGRAPHICS_PATHS])
      expectImsxError(await h.get(path), 401, 'unauthorisedrequest');
  });

  it('refuses every forged, expired or misaddressed token with 401', async () => {
    const attacks = await h.issuer.attackTokens({
      scopes: [SCOPE.roster, SCOPE.demographics],
      tenantId: D.tenantId,
      deploymentId: D.deploymentId,
    });
    for (const [name, token] of Object.entries(attacks)) {
      for (const path of ['users', 'demographics/usr-s-01', 'schools/org-s1/classes']) {
        const res = await h.get(path, token);
        if (res.status !== 401) throw new Error(`${name} on ${path}: ${res.status}`);
        expectImsxError(res, 401, 'unauthorisedrequest');
      }
    }
  });

  it('accepts roster-core.readonly or roster.readonly on every rostering read', async () => {
    for (const scope of [SCOPE.core, SCOPE.roster]) {
      const token = await h.token(D, [scope]);
      for (const path of ROSTER_PATHS) {
        const res = await h.get(path, token);
        if (res.status !== 200) throw new Error(`${scope} ${path}: ${res.status} ${JSON.stringify(res.body)}`);
      }
    }
  });

  it('refuses rostering reads with only other scopes (403 forbidden)', async () => {
    const token = await h.token(D, [SCOPE.demographics, SCOPE.gradebook]);
    for (const path of ROSTER_PATHS) expectImsxError(await h.get(path, token), 403, 'forbidden');
  });

  it('opens demographics with roster-demographics.readonly only', async () => {
    const demo = await h.token(D, [SCOPE.demographics]);
    for (const path of DEMOGRAPHICS_PATHS) await h.get(path, demo).expect(200);
    const roster = await h.token(D, [SCOPE.roster, SCOPE.core]);
    for (const path of DEMOGRAPHICS_PATHS) expectImsxError(await h.get(path, roster), 403, 'forbidden');
  });

  it('answers tenant-context tokens only: developer and operator tokens get 403', async () => {
    const dev = await h.issuer.mint({ scopes: [SCOPE.roster, SCOPE.demographics], developerId: 'dev-1' });
    const op = await h.issuer.mint({ scopes: [SCOPE.roster], sub: 'operator' });
    for (const token of [dev, op]) {
      expectImsxError(await h.get('users', token), 403, 'forbidden');
      expectImsxError(await h.get('users/usr-s-01', token), 403, 'forbidden');
    }
  });

  it('requires the data-operations licence (403 forbidden)', async () => {
    const unlicensed = await h.tenant({ rootOrg: 'org-d1', licences: ['advanced'] });
    await loadFixture(h, unlicensed, districtFixture());
    const token = await h.token(unlicensed, [SCOPE.roster, SCOPE.demographics]);
    for (const path of ['users', 'users/usr-s-01', 'demographics', 'schools/org-s1/students']) {
      const res = await h.get(path, token);
      expectImsxError(res, 403, 'forbidden');
      expect(res.body.statusInfoSet[0].imsx_description).toMatch(/data-operations/);
    }
    const unknownTenant = await h.issuer.mint({
      scopes: [SCOPE.roster],
      tenantId: '00000000-0000-4000-8000-000000000000',
    });
    expectImsxError(await h.get('users', unknownTenant), 403, 'forbidden');
    const notAUuid = await h.issuer.mint({ scopes: [SCOPE.roster], tenantId: 'not-a-uuid' });
    expectImsxError(await h.get('users', notAUuid), 403, 'forbidden');
  });

  describe('regional hosts', () => {
    let regional: NestExpressApplication;
    beforeAll(async () => {
      regional = await h.boot({ SERVICE_REGION: 'SG' });
    });
    afterAll(() => regional?.close());

    it('serve their region\u2019s tenants and refuse others with 403 forbidden', async () => {
      const sg = await h.tenant({ rootOrg: 'org-d1', region: 'SG' });
      await loadFixture(h, sg, districtFixture());
      const sgToken = await h.token(sg, [SCOPE.roster]);
      await h.get('users/usr-s-01', sgToken, regional).expect(200);
      const auToken = await h.token(D, [SCOPE.roster]);
      const res = await h.get('users', auToken, regional);
      expectImsxError(res, 403, 'forbidden');
      expect(res.body.statusInfoSet[0].imsx_description).toMatch(/region/);
      // The unified host serves every region.
      await h.get('users', auToken).expect(200);
      await h.get('users', sgToken).expect(200);
    });

    it('go by the tenant\u2019s stored region, not by a claim in the token', async () => {
      const lying = await h.token(D, [SCOPE.roster], { region: 'SG' });
      expectImsxError(await h.get('users', lying, regional), 403, 'forbidden');
    });
  });

  it('checks authentication before the licence, and the licence before the route\u2019s data', async () => {
    const unlicensed = await h.tenant({ licences: [] });
    const token = await h.token(unlicensed, [SCOPE.roster]);
    expectImsxError(await h.get('users/does-not-exist', token), 403, 'forbidden');
    expectImsxError(await h.get('users?limit=abc', token), 403, 'forbidden');
  });
});
