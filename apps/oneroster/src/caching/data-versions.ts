import { Injectable } from '@nestjs/common';
import { RosterDb, type SqlTransaction } from '../roster/roster-db';

/** What a tenant's answers are built from: bumped by imports (roster) and gradebook writes. */
export interface DataVersions {
  /** `roster_data_versions`: every import (bulk or delta) bumps it in its own transaction. */
  readonly roster: string;
  /** `gradebook_data_versions`: every gradebook PUT, DELETE and bulk POST bumps it in its own transaction. */
  readonly gradebook: string;
}

const READ_VERSIONS_SQL =
  `SELECT COALESCE((SELECT version FROM roster_data_versions WHERE tenant_id = $1::uuid), 0)::text AS roster, ` +
  `COALESCE((SELECT version FROM gradebook_data_versions WHERE tenant_id = $1::uuid), 0)::text AS gradebook`;

const BUMP_GRADEBOOK_VERSION_SQL =
  'INSERT INTO gradebook_data_versions (tenant_id, version) VALUES ($1::uuid, 1) ' +
  'ON CONFLICT (tenant_id) DO UPDATE SET version = gradebook_data_versions.version + 1';

/**
 * Reads both versions of a tenant on every request (two primary-key lookups in one statement).
 * Never cached in the process: a write committed through another replica must change the very
 * next answer here, and nothing short of asking the database knows about it in time.
 */
@Injectable()
export class DataVersionReader {
  constructor(private readonly db: RosterDb) {}

  async read(tenantId: string): Promise<DataVersions> {
    const [row] = await this.db.query<DataVersions>(READ_VERSIONS_SQL, [tenantId]);
    return row ?? { roster: '0', gradebook: '0' };
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
