import { canonicalSpec, specHash, toSpec } from '@edu/sharing';
import type { RosterHarness, TenantSetup } from './harness';

/**
 * Makes `spec` the deployment's sharing in force the way the Identity API's activation stores it
 * (the canonical spec, its hash, the tenant's sharing version bumped in the same transaction).
 * The API itself is exercised by apps/identity/test/sharing-api.int-spec.ts and, end to end with
 * these reads, by sharing-property.int-spec.ts.
 */
export async function activateSharing(h: RosterHarness, t: TenantSetup, spec: Record<string, unknown>): Promise<void> {
  const active = canonicalSpec(toSpec(spec));
  await h.ds.transaction(async (m) => {
    await m.query(
      `INSERT INTO deployment_sharing (deployment_id, tenant_id, app_id, active, active_hash, activated_at)
       VALUES ($1, $2, $3, $4, $5, now())
       ON CONFLICT (deployment_id) DO UPDATE SET active = $4, active_hash = $5, activated_at = now()`,
      [t.deploymentId, t.tenantId, t.appId, JSON.stringify(active), specHash(active)],
    );
    await m.query(
      `INSERT INTO sharing_versions (tenant_id, version) VALUES ($1, 1)
       ON CONFLICT (tenant_id) DO UPDATE SET version = sharing_versions.version + 1`,
      [t.tenantId],
    );
  });
}
