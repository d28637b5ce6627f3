import type { RosterHarness, TenantSetup } from './harness';
import type { RosterFixture } from './roster-fixture';
import { loadFixtureWithSql } from './sql-loader';

/** Loads a fixture for a tenant. */
export async function loadFixture(h: RosterHarness, t: TenantSetup, fixture: RosterFixture): Promise<void> {
  await loadFixtureWithSql(h.db.url, t.tenantId, fixture);
}
