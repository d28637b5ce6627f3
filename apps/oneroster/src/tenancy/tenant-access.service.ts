import { Injectable } from '@nestjs/common';
import { assertServedRegion } from '@edu/auth';
import { ApiError, ApiErrorCode, isUuid, type TenantPrincipal } from '@edu/domain';
import type { DateOutputMode, OverLimit } from '@edu/oneroster-query';
import { LoadingCache } from '../common/loading-cache';
import { OnerosterEnv } from '../oneroster.env';
import type { OneRosterApi } from '../common/oneroster-api';
import { RosterDb } from '../db/roster-db';

/** How a deployment wants OneRoster values printed and pages served (design §8, reference §1, §5.1). */
export interface OutputSettings {
  readonly dateMode: DateOutputMode;
  readonly booleans: 'string' | 'json';
  /** `limit` above the maximum: 400 (spec) or served as the maximum (consumer compatibility profile). */
  readonly overLimit: OverLimit;
}

/** What the rostering API needs to know about the caller's tenant, after the access checks. */
export interface TenantAccess {
  readonly tenantId: string;
  readonly regionId: string;
  /** Root of the tenant's visible org tree; null = no root configured (every imported org is visible). */
  readonly rootOrgSourcedId: string | null;
  readonly output: OutputSettings;
  /**
   * The roster data version this answer is keyed by, when the caller read it (conditional reads
   * do, per request): the read path then builds on that version instead of its own cached one.
   */
  readonly rosterVersion?: string;
  /** The deployment the token was issued for (its sharing applies); null when the token names none. */
  readonly deploymentId: string | null;
  /** The tenant's sharing version this answer is keyed by, when the caller read it (as `rosterVersion`). */
  readonly sharingVersion?: string;
  /** The tenant's gradebook version this answer is keyed by, when the caller read it (as `rosterVersion`). */
  readonly gradebookVersion?: string;
  /** Scope URIs granted to the deployment (not only the token's): what its change feed may carry. */
  readonly deploymentScopes: readonly string[];
}

interface TenantRow {
  region_id: string;
  licences: string[] | null;
  root_org_sourced_id: string | null;
  settings: { onerosterDateFormat?: unknown; onerosterBooleans?: unknown; onerosterProfile?: unknown } | null;
  scope: string[] | null;
}

type Lookup = { found: false } | { found: true; row: TenantRow };

export const REQUIRED_LICENCE = 'data-operations';

/**
 * Resolves a tenant-context principal to its tenant's licences, region, root org and the
 * deployment's output settings, with a short per-replica cache, and applies the access rules:
 * the licence (403), the regional host (403), tenant-context tokens only (403).
 */
@Injectable()
export class TenantAccessService {
  /** Undefined when `ONEROSTER_TENANT_CACHE_TTL_MS` is 0: every request reads the database. */
  private readonly cache: LoadingCache<string, Lookup> | undefined;

  constructor(
    private readonly db: RosterDb,
    private readonly env: OnerosterEnv,
  ) {
    // LoadingCache reads a TTL of 0 as "never expires", the opposite of what 0 means here.
    const ttl = env.ONEROSTER_TENANT_CACHE_TTL_MS;
    this.cache = ttl > 0 ? new LoadingCache<string, Lookup>(10_000, ttl) : undefined;
  }

  async resolve(who: TenantPrincipal): Promise<TenantAccess> {
    const tenantId = who.tenantId.toLowerCase();
    const deploymentId = who.deploymentId && isUuid(who.deploymentId) ? who.deploymentId.toLowerCase() : null;
    const lookup = isUuid(tenantId) ? await this.lookup(tenantId, deploymentId) : { found: false as const };
    if (!lookup.found) {
      throw new ApiError(
        ApiErrorCode.LicenceRequired,
        `The rostering API needs the tenant's ${REQUIRED_LICENCE} licence`,
      );
    }
    const { row } = lookup;
    assertServedRegion(this.env.SERVICE_REGION, row.region_id);
    if (!(row.licences ?? []).includes(REQUIRED_LICENCE)) {
      throw new ApiError(
        ApiErrorCode.LicenceRequired,
        `The rostering API needs the tenant's ${REQUIRED_LICENCE} licence`,
      );
    }
    return {
      tenantId,
      deploymentId,
      regionId: row.region_id,
      rootOrgSourcedId: row.root_org_sourced_id,
      output: outputSettings(row.settings),
      deploymentScopes: row.scope ?? [],
    };
  }

  private lookup(tenantId: string, deploymentId: string | null): Promise<Lookup> {
    const load = async (): Promise<Lookup> => {
      const rows = await this.db.query<TenantRow>(
        `SELECT t.region_id, t.licences, t.root_org_sourced_id, d.settings, d.scope
           FROM tenants t
           LEFT JOIN tenant_app_deployments d ON d.id = $2::uuid AND d.tenant_id = t.id
          WHERE t.id = $1::uuid`,
        [tenantId, deploymentId],
      );
      const row = rows[0];
      return row ? { found: true, row } : { found: false };
    };
    return this.cache ? this.cache.get(`${tenantId}|${deploymentId ?? ''}`, load) : load();
  }
}

/**
 * The deployment's output settings. The consumer compatibility profile (`onerosterProfile =
 * 'compatibility'`) is what stock sync clients (Google Classroom, Microsoft SDS) need: large
 * `limit`s served as pages of 1000, and ISO 8601 dates whatever `onerosterDateFormat` says.
 */
export function outputSettings(settings: TenantRow['settings']): OutputSettings {
  const compatibility = settings?.onerosterProfile === 'compatibility';
  return {
    dateMode: compatibility || settings?.onerosterDateFormat === 'iso8601' ? 'iso8601' : 'compact',
    booleans: settings?.onerosterBooleans === 'json' ? 'json' : 'string',
    overLimit: compatibility ? 'clamp' : 'reject',
  };
}

/**
 * v1.2 has one output format (reference v1.2 §2, §6.1, design §9): ISO 8601, booleans as
 * `"true"`/`"false"`, a limit above the maximum served as pages of the maximum. The v1.1
 * deployment settings do not apply to it.
 */
export const V1P2_OUTPUT: OutputSettings = { dateMode: 'iso8601', booleans: 'string', overLimit: 'clamp' };

/** How answers of `api` are printed for this caller. */
export function outputFor(api: OneRosterApi, access: TenantAccess): OutputSettings {
  return api.version === 'v1p2' ? V1P2_OUTPUT : access.output;
}
