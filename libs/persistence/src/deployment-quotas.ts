import { LRUCache } from 'lru-cache';
import type { DataSource } from 'typeorm';
import { isUuid } from '@edu/domain';
import type { DeploymentSettings } from './entities/deployment.entity';

/** Route groups whose client budget a deployment setting may override (libs/rate-limit `OverridableGroup`). */
export type QuotaGroup = 'read' | 'write' | 'gradebook-write';

const STORED: Record<QuotaGroup, keyof DeploymentSettings> = {
  read: 'rateLimitRead',
  write: 'rateLimitWrite',
  'gradebook-write': 'rateLimitGradebookWrite',
};

/** The quotas the operator set on a deployment, from its stored settings (anything else ignored). */
export function quotasOf(settings: DeploymentSettings | null | undefined): Partial<Record<QuotaGroup, number>> {
  const out: Partial<Record<QuotaGroup, number>> = {};
  for (const [group, key] of Object.entries(STORED) as [QuotaGroup, keyof DeploymentSettings][]) {
    const value = settings?.[key];
    if (typeof value === 'number' && Number.isInteger(value) && value > 0) out[group] = value;
  }
  return out;
}

/**
 * Reads a deployment's rate-limit quotas from `tenant_app_deployments.settings` (replicated to
 * every regional database, like the OneRoster profile), cached per replica for `ttlMs`: a change
 * takes effect within that time everywhere, and a client that keeps being refused costs no query.
 */
export class DeploymentQuotaReader {
  private readonly cache: LRUCache<string, Partial<Record<QuotaGroup, number>>>;

  constructor(
    private readonly ds: DataSource,
    ttlMs = 5_000,
  ) {
    this.cache = new LRUCache({ max: 10_000, ttl: ttlMs });
  }

  async forDeployment(deploymentId: string): Promise<Partial<Record<QuotaGroup, number>>> {
    if (!isUuid(deploymentId)) return {};
    const id = deploymentId.toLowerCase();
    const hit = this.cache.get(id);
    if (hit) return hit;
    const rows: { settings: DeploymentSettings | null }[] = await this.ds.query(
      'SELECT settings FROM tenant_app_deployments WHERE id = $1',
      [id],
    );
    const quotas = quotasOf(rows[0]?.settings);
    this.cache.set(id, quotas);
    return quotas;
  }
}
