import { Injectable } from '@nestjs/common';
import { LRUCache } from 'lru-cache';
import { Pool } from 'pg';
import { canonicalSpec, SHARE_EVERYTHING, specHash, type SharingSpec } from './sharing-spec';

/** A deployment's sharing in force: the canonical spec and its hash. */
export interface ActiveSharing {
  readonly spec: SharingSpec;
  readonly hash: string;
}

const EVERYTHING: ActiveSharing = { spec: SHARE_EVERYTHING, hash: specHash(SHARE_EVERYTHING) };

/** The tenant's sharing version (`$1` = tenant id) as a SQL expression, '0' before any activation. */
export const SHARING_VERSION_SQL =
  'COALESCE((SELECT version FROM sharing_versions WHERE tenant_id = $1::uuid), 0)::text';

/**
 * Reads what each deployment shares. Keyed by the tenant's sharing version, which every
 * activation bumps in its own transaction: a caller that read the version on this request gets
 * the sharing in force for it, from memory after the first time.
 */
@Injectable()
export class SharingReader {
  private readonly cache = new LRUCache<string, ActiveSharing>({ max: 20_000 });

  constructor(private readonly pool: Pool) {}

  /** The tenant's sharing version, read now. */
  async version(tenantId: string): Promise<string> {
    const { rows } = await this.pool.query<{ v: string }>(`SELECT ${SHARING_VERSION_SQL} AS v`, [tenantId]);
    return rows[0]?.v ?? '0';
  }

  /**
   * The sharing in force for the deployment (everything when it has none). With `sharingVersion`
   * (read by the caller on this request) the answer is remembered under it; without, it is read.
   */
  async active(tenantId: string, deploymentId: string | undefined, sharingVersion?: string): Promise<ActiveSharing> {
    if (!deploymentId) return EVERYTHING;
    const key = sharingVersion === undefined ? undefined : `${tenantId}|${deploymentId}|${sharingVersion}`;
    const known = key ? this.cache.get(key) : undefined;
    if (known) return known;
    const { rows } = await this.pool.query<{ active: SharingSpec | null }>(
      'SELECT active FROM deployment_sharing WHERE deployment_id = $1::uuid AND tenant_id = $2::uuid',
      [deploymentId, tenantId],
    );
    const active = rows[0]?.active;
    const found = active ? { spec: canonicalSpec(active), hash: specHash(active) } : EVERYTHING;
    if (key) this.cache.set(key, found);
    return found;
  }
}

/** The sharing of a deployment without any: every object, no field withheld. */
export const SHARING_EVERYTHING = EVERYTHING;
