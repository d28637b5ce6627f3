import { Injectable } from '@nestjs/common';
import { LoadingCache } from '../common/loading-cache';
import { OnerosterEnv } from '../oneroster.env';
import { RosterDb } from '../db/roster-db';

/** An org of the tenant, as needed to work out what the tenant may see. */
export interface OrgNode {
  readonly type: string;
  readonly parent: string | null;
}

/** The orgs a tenant sees: its root org and every org below it (design §4). */
export interface OrgVisibility {
  /** True when no root is configured: every imported org is visible. */
  readonly all: boolean;
  /** Visible org sourcedIds (every imported org when `all`). */
  readonly ids: ReadonlySet<string>;
  /** Visible org sourcedIds, as an array parameter. */
  readonly idList: readonly string[];
  readonly orgs: ReadonlyMap<string, OrgNode>;
}

/**
 * Per-replica knowledge that only changes with an import: the tenant's data version (read at
 * most every `ONEROSTER_DATA_VERSION_TTL_MS`) and, keyed by that version, the tenant's org tree.
 */
@Injectable()
export class RosterVersionsService {
  private readonly versions: LoadingCache<string, string>;
  private readonly trees = new LoadingCache<string, OrgVisibility>(2_000);
  private readonly ttl: number;

  constructor(
    private readonly db: RosterDb,
    env: OnerosterEnv,
  ) {
    this.versions = new LoadingCache<string, string>(10_000, env.ONEROSTER_DATA_VERSION_TTL_MS);
    this.ttl = env.ONEROSTER_DATA_VERSION_TTL_MS;
  }

  /** The tenant's roster data version ('0' before any import). */
  async version(tenantId: string): Promise<string> {
    const load = async () => {
      const rows = await this.db.query<{ version: string }>(
        'SELECT version FROM roster_data_versions WHERE tenant_id = $1::uuid',
        [tenantId],
      );
      return rows[0] ? String(rows[0].version) : '0';
    };
    return this.ttl > 0 ? this.versions.get(tenantId, load) : load();
  }

  /** The tenant's visible orgs for a data version and root. */
  visibility(tenantId: string, version: string, root: string | null): Promise<OrgVisibility> {
    return this.trees.get(`${tenantId}|${version}|${root ?? ''}`, async () => {
      const rows = await this.db.query<{ sourced_id: string; type: string; parent_sourced_id: string | null }>(
        'SELECT sourced_id, type, parent_sourced_id FROM roster_orgs WHERE tenant_id = $1::uuid',
        [tenantId],
      );
      const orgs = new Map<string, OrgNode>(
        rows.map((r) => [r.sourced_id, { type: r.type, parent: r.parent_sourced_id }]),
      );
      return computeVisibility(orgs, root);
    });
  }
}

/** Root plus descendants (cycles in bad data are tolerated: each org is visited once). */
export function computeVisibility(orgs: ReadonlyMap<string, OrgNode>, root: string | null): OrgVisibility {
  if (root === null) {
    const ids = new Set(orgs.keys());
    return { all: true, ids, idList: [...ids], orgs };
  }
  const children = new Map<string, string[]>();
  for (const [id, node] of orgs) {
    if (node.parent === null) continue;
    const list = children.get(node.parent) ?? [];
    list.push(id);
    children.set(node.parent, list);
  }
  const ids = new Set<string>();
  if (orgs.has(root)) {
    const queue = [root];
    while (queue.length > 0) {
      const id = queue.pop() as string;
      if (ids.has(id)) continue;
      ids.add(id);
      for (const child of children.get(id) ?? []) queue.push(child);
    }
  }
  return { all: ids.size === orgs.size, ids, idList: [...ids], orgs };
}
