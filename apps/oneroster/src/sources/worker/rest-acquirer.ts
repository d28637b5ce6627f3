import { Inject, Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import type { OneRosterRestSettings, RosterSourceEntity, RosterSyncEntity, RosterSyncMode } from '@edu/persistence';
import { SourceSecrets } from '../source-secrets';
import { DEFAULT_FULL_SYNC_HOURS } from '../source-input';
import { sourceTargetPolicy } from '../sources.env';
import { SOURCES_SETTINGS } from '../sources-settings.token';
import type { AcquiredPackage, PackageAcquirer } from './acquired';
import { GuardedHttp } from './rest/guarded-http';
import { OneRosterClient } from './rest/oneroster-client';
import { pullPackage } from './rest/rest-puller';
import type { RosterSyncWorkerEnv } from './worker.env';

/** Full or delta: what was asked for, else delta while the source can and its last full read is recent. */
export function chooseMode(
  source: RosterSourceEntity,
  requested: RosterSyncMode | null,
  now = Date.now(),
): RosterSyncMode {
  const s = source.settings as OneRosterRestSettings;
  if (requested === 'full' || s.delta === false || !source.deltaCursor) return 'full';
  if (requested === 'delta') return 'delta';
  const hours = s.full_sync_interval_hours ?? DEFAULT_FULL_SYNC_HOURS;
  const last = source.lastFullSyncAt?.getTime() ?? 0;
  return now - last > hours * 3_600_000 ? 'full' : 'delta';
}

/** A `oneroster-rest` source's package: pulled from its API into the work folder. */
@Injectable()
export class RestAcquirer implements PackageAcquirer {
  private readonly http: GuardedHttp;
  private readonly secrets: SourceSecrets;

  constructor(
    @Inject(SOURCES_SETTINGS) private readonly env: RosterSyncWorkerEnv,
    private readonly ds: DataSource,
  ) {
    this.http = new GuardedHttp(sourceTargetPolicy(env), {
      timeoutMs: env.ROSTER_SYNC_HTTP_TIMEOUT_MS,
      maxBytes: env.ROSTER_SYNC_MAX_ANSWER_BYTES,
    });
    this.secrets = new SourceSecrets(env);
  }

  async acquire(source: RosterSourceEntity, sync: RosterSyncEntity, dir: string): Promise<AcquiredPackage> {
    const s = source.settings as OneRosterRestSettings;
    const started = new Date();
    const client = new OneRosterClient(
      this.http,
      {
        tokenUrl: s.token_url,
        clientId: s.client_id,
        clientSecret: this.secrets.open(source.secretEncrypted ?? ''),
        scope: s.scope,
      },
      {
        retries: this.env.ROSTER_SYNC_RETRIES,
        maxWaitMs: this.env.ROSTER_SYNC_RETRY_MAX_WAIT_MS,
        baseDelayMs: this.env.ROSTER_SYNC_RETRY_BASE_MS,
      },
    );
    const mode = chooseMode(source, sync.requestedMode);
    const result = await pullPackage(client, {
      version: s.version,
      baseUrl: s.base_url,
      mode,
      since: mode === 'delta' ? (source.deltaCursor ?? undefined) : undefined,
      dir,
      paging: {
        pageSize: this.env.ROSTER_SYNC_PAGE_SIZE,
        parallel: this.env.ROSTER_SYNC_PARALLEL_PAGES,
        maxPages: this.env.ROSTER_SYNC_MAX_PAGES,
      },
      storedUserRecords: (file, userIds) => this.storedUserRecords(source.tenantId, file, userIds),
    });
    return {
      dir,
      mode: result.mode,
      rows: result.rows,
      warnings: result.warnings,
      origin: s.base_url,
      nextCursor: new Date(started.getTime() - this.env.ROSTER_SYNC_DELTA_OVERLAP_MS).toISOString(),
      ...(result.mode === 'full' ? { fullReadAt: started } : {}),
    };
  }

  /** Active role or profile records of these users (a v1.2 delta ends those the source dropped). */
  private async storedUserRecords(
    tenantId: string,
    file: 'roles' | 'userProfiles',
    userIds: string[],
  ): Promise<string[]> {
    const table = file === 'roles' ? 'roster_user_roles' : 'roster_user_profiles';
    const rows: Array<{ sourced_id: string }> = await this.ds.query(
      `SELECT sourced_id FROM ${table} WHERE tenant_id = $1 AND user_sourced_id = ANY($2) AND status = 'active'`,
      [tenantId, userIds],
    );
    return rows.map((r) => r.sourced_id);
  }
}
