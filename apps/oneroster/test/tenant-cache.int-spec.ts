import type { NestExpressApplication } from '@nestjs/platform-express';
import { RosterHarness, SCOPE, type TenantSetup } from './support/harness';
import { expectImsxError } from './support/imsx';
import { loadFixture } from './support/load';
import { districtFixture } from './support/roster-fixture';

const COMPACT_DATETIME = /^\d{8}T\d{6}\.\d{3}Z$/;
const ISO_DATETIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

/** ONEROSTER_TENANT_CACHE_TTL_MS: 0 reads tenant and deployment settings on every request. */
describe('OneRoster tenant cache', () => {
  const h = new RosterHarness();
  let D: TenantSetup;

  beforeAll(async () => {
    await h.start(); // the harness boots with ONEROSTER_TENANT_CACHE_TTL_MS=0
    D = await h.tenant({ rootOrg: 'org-d1' });
    await loadFixture(h, D, districtFixture());
  });

  afterAll(() => h.stop());

  const setSettings = (settings: object) =>
    h.ds.query('UPDATE tenant_app_deployments SET settings = $2 WHERE id = $1', [
      D.deploymentId,
      JSON.stringify(settings),
    ]);
  const setLicences = (licences: string[]) =>
    h.ds.query('UPDATE tenants SET licences = $2 WHERE id = $1', [D.tenantId, licences]);
  const stamp = async (token: string, app?: NestExpressApplication) =>
    (await h.get('orgs/org-d1', token, app).expect(200)).body.org.dateLastModified as string;

  it('with TTL 0, sees a deployment-settings change on the very next request', async () => {
    const token = await h.token(D, [SCOPE.core]);
    await setSettings({});
    expect(await stamp(token)).toMatch(COMPACT_DATETIME);
    await setSettings({ onerosterDateFormat: 'iso8601' });
    expect(await stamp(token)).toMatch(ISO_DATETIME);
    await setSettings({});
    expect(await stamp(token)).toMatch(COMPACT_DATETIME);
  });

  it('with TTL 0, sees a licence withdrawn on the very next request', async () => {
    const token = await h.token(D, [SCOPE.core]);
    await h.get('orgs', token).expect(200);
    await setLicences([]);
    try {
      expectImsxError(await h.get('orgs', token), 403, 'forbidden');
    } finally {
      await setLicences(['data-operations']);
    }
    await h.get('orgs', token).expect(200);
  });

  it('with a positive TTL, keeps answering from the cache until the entry expires', async () => {
    const cached = await h.boot({ ONEROSTER_TENANT_CACHE_TTL_MS: '60000' });
    try {
      const token = await h.token(D, [SCOPE.core]);
      await setSettings({});
      expect(await stamp(token, cached)).toMatch(COMPACT_DATETIME);
      await setSettings({ onerosterDateFormat: 'iso8601' });
      expect(await stamp(token, cached)).toMatch(COMPACT_DATETIME);
      // The uncached instance on the same database already sees the change.
      expect(await stamp(token)).toMatch(ISO_DATETIME);
    } finally {
      await setSettings({});
      await cached.close();
    }
  });
});
