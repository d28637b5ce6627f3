import { Injectable } from '@nestjs/common';
import { LRUCache } from 'lru-cache';
import { SHARING_VERSION_SQL } from '@edu/sharing';
import type { DataVersions } from '../common/roster-response';
import { RosterDb, type SqlTransaction, type ValueRow } from '../db/roster-db';

/** The tenant's (`$1`) versions as SQL expressions: scalar subqueries, evaluated once per statement (in its snapshot). */
const ROSTER_VERSION_SQL = 'COALESCE((SELECT version FROM roster_data_versions WHERE tenant_id = $1::uuid), 0)::text';
export const GRADEBOOK_VERSION_SQL =
  'COALESCE((SELECT version FROM gradebook_data_versions WHERE tenant_id = $1::uuid), 0)::text';

const READ_VERSIONS_SQL = `SELECT ${ROSTER_VERSION_SQL} AS roster, ${GRADEBOOK_VERSION_SQL} AS gradebook, ${SHARING_VERSION_SQL} AS sharing`;

/**
 * The versions as two more columns of a statement whose `$1` is the tenant id (every read of
 * roster rows): each row then carries the versions of the very snapshot its values come from.
 */
export const DATA_VERSION_COLUMNS = `, ${ROSTER_VERSION_SQL} AS "v_roster", ${GRADEBOOK_VERSION_SQL} AS "v_gradebook", ${SHARING_VERSION_SQL} AS "v_sharing"`;

/** The versions a row read with `DATA_VERSION_COLUMNS` after its first `at` columns carries; null without a row. */
export function versionsOfRow(row: ValueRow | undefined, at: number): DataVersions | null {
  return row ? { roster: String(row[at]), gradebook: String(row[at + 1]), sharing: String(row[at + 2]) } : null;
}

/** Tenants whose last seen versions are remembered per replica. */
const REMEMBERED_TENANTS = 10_000;

const BUMP_GRADEBOOK_VERSION_SQL =
  'INSERT INTO gradebook_data_versions (tenant_id, version) VALUES ($1::uuid, 1) ' +
  'ON CONFLICT (tenant_id) DO UPDATE SET version = gradebook_data_versions.version + 1';

/**
 * Reads the tenant's versions (three primary-key lookups in one statement), on every request
 * that does not read them with its rows. Never trusted from memory: a write committed through
 * another replica must change the very next answer here, and nothing short of asking the
 * database knows about it in time. What was last read is only remembered as a guess.
 */
@Injectable()
export class DataVersionReader {
  private readonly seen = new LRUCache<string, DataVersions>({ max: REMEMBERED_TENANTS });

  constructor(private readonly db: RosterDb) {}

  async read(tenantId: string): Promise<DataVersions> {
    const [row] = await this.db.query<DataVersions>(READ_VERSIONS_SQL, [tenantId]);
    const versions = row ?? { roster: '0', gradebook: '0', sharing: '0' };
    this.remember(tenantId, versions);
    return versions;
  }

  /**
   * The versions this replica last read for the tenant: a guess to render under, which only
   * the versions read with the rows themselves can confirm (`ConditionalReads`).
   */
  lastSeen(tenantId: string): DataVersions | undefined {
    return this.seen.get(tenantId);
  }

  remember(tenantId: string, versions: DataVersions): void {
    this.seen.set(tenantId, versions);
  }
}

/**
 * Publishes a gradebook change of the tenant, inside the write's own transaction: readers see
 * the new version exactly when they can see the write. Run it last, just before the commit:
 * the row lock it takes serialises the tenant's concurrent gradebook writes only that long.
 */
export async function bumpGradebookVersion(tx: SqlTransaction, tenantId: string): Promise<void> {
  await tx.execute(BUMP_GRADEBOOK_VERSION_SQL, [tenantId]);
}
