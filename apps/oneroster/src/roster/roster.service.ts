import { Injectable } from '@nestjs/common';
import { ApiError, ApiErrorCode } from '@edu/domain';
import {
  buildLinkHeader,
  catalogWithout,
  excerpt,
  filterPredicates,
  getCatalog,
  parseCollectionQuery,
  parseSingleQuery,
  pickLinkParams,
  RESOURCE_KEYS,
  stringifyFilter,
  warningsStatusInfoSet,
  type CollectionQuery,
  type FilterNode,
  type OneRosterVersion,
  type RawQuery,
} from '@edu/oneroster-query';
import { listedObject, visibleCondition } from '@edu/sharing';
import { DATA_VERSION_COLUMNS, versionsOfRow } from '../caching/data-versions';
import { LoadingCache } from '../common/loading-cache';
import type { OneRosterApi } from '../common/oneroster-api';
import type { RosterResponse } from '../common/roster-response';
import { OnerosterEnv } from '../oneroster.env';
import { filterToSql } from '../query/filter-sql';
import { quoteIdent, type HrefRoots, type RosterTable } from '../query/roster-tables';
import { tableOf } from '../query/roster-tables-v1p2';
import { sortToSql } from '../query/sort-sql';
import { SqlParams } from '../query/sql-params';
import { classWithheld, RosterSharing, withheldOf, type RosterVisibility } from '../tenancy/roster-sharing';
import { outputFor, type OutputSettings, type TenantAccess } from '../tenancy/tenant-access.service';
import type { BaseSet, BaseSetInput, CollectionOperation, OrdinalColumn, SingleOperation } from './roster-operations';
import { RosterVersionsService } from '../tenancy/roster-versions.service';
import { defaultFields, rowSerializer, type JsonFormat, type RowSerializer } from './roster-serializer';
import { RosterRepository, rowSet, type Row, type RowSet } from './roster.repository';
import { countFromHistogram, histogramCanAnswer, type StampBucket } from './stamp-histogram';

/** Where the request came from: what links and hrefs are built on, and the request id. */
export interface RequestInfo {
  /** The binding the request is answered in. */
  readonly api: OneRosterApi;
  /** Service roots for hrefs, e.g. `https://host/ims/oneroster/v1p1`. */
  readonly hrefRoots: HrefRoots;
  /** Absolute URL of the requested path, without query (base of `Link` URLs). */
  readonly selfUrl: string;
  readonly requestId: string;
}

const OBSERVING = new WeakMap<RowSerializer, RowSerializer>();

/** The serializer, reading the tenant's data versions along with the rows when asked to. */
function observing(serializer: RowSerializer, observeVersions: boolean): RowSerializer {
  if (!observeVersions) return serializer;
  // Serializers are built once and cached (`rowSerializer`), so each gets its observing twin once:
  // no select list concatenated (and hashed into a statement name) per request.
  let twin = OBSERVING.get(serializer);
  if (!twin) OBSERVING.set(serializer, (twin = { ...serializer, columns: serializer.columns + DATA_VERSION_COLUMNS }));
  return twin;
}

/** `{"<key>":<value>[,"statusInfoSet":[…]]}` from a JSON text already built by the database. */
function envelope(key: string, value: string, status: { statusInfoSet: unknown } | undefined): string {
  return `{${JSON.stringify(key)}:${value}${status ? `,"statusInfoSet":${JSON.stringify(status.statusInfoSet)}` : ''}}`;
}

/** Filters that read tombstones on purpose: delta syncs (`dateLastModified`) and status queries. */
const SEES_TOMBSTONES = new Set(['status', 'dateLastModified']);

/**
 * Deleted gradebook objects vanish from plain collection reads (Google's suites DELETE, then
 * expect the class's collection not to list the object) but stay visible to a filter on
 * `status` or `dateLastModified`, which is how sync clients learn of deletions. Both versions.
 */
function hidesTombstones(table: RosterTable, filter: FilterNode | undefined): boolean {
  return (
    table.changes === 'api' && !(filter && filterPredicates(filter).some((p) => SEES_TOMBSTONES.has(p.field.field)))
  );
}

interface PreparedSet {
  readonly version: string;
  readonly input: BaseSetInput;
  /** The operation's base set (its path and kind conditions). */
  readonly base: BaseSet;
  /** What the deployment may see, and the condition that keeps only that (placeholders in `input.params`). */
  readonly shared: RosterVisibility;
  readonly visible: readonly string[];
  /** The scope id's placeholder in `input.params`, when the sharing has a scope. */
  readonly scopeParam?: string;
}

/**
 * Reads for every operation (rostering, gradebook, resources): base set → filter → total → sort →
 * page → serialise → field selection (reference §5). For tables that change only through
 * imports, totals are cached per tenant, data version, operation, path ids, org root and
 * canonical filter; an import publishes a new version, so entries are never stale and no replica
 * needs telling. Gradebook tables change through the API at any time: their totals are also kept
 * per gradebook version, which every such write bumps.
 */
@Injectable()
export class RosterService {
  private readonly totals: LoadingCache<string, number>;
  private readonly histograms = new LoadingCache<string, readonly StampBucket[] | null>(200);

  constructor(
    private readonly repo: RosterRepository,
    private readonly versions: RosterVersionsService,
    private readonly sharing: RosterSharing,
    env: OnerosterEnv,
  ) {
    this.totals = new LoadingCache<string, number>(env.ONEROSTER_COUNT_CACHE_ENTRIES);
  }

  async list(
    access: TenantAccess,
    op: CollectionOperation,
    ids: Readonly<Record<string, string>>,
    raw: RawQuery,
    info: RequestInfo,
    observeVersions = false,
  ): Promise<RosterResponse> {
    const { version } = info.api;
    const output = outputFor(info.api, access);
    const table = tableOf(op.resource, version);
    const prepared = await this.prepare(access, op, ids, version);
    const withheld = withheldOf(prepared.shared, op.resource);
    const query = parseCollectionQuery(raw, catalogWithout(getCatalog(op.resource, version), withheld), {
      overLimit: output.overLimit,
      strict: version === 'v1p2',
    });
    const fields = query.fields ?? defaultFields(table, withheld);
    const serializer = observing(rowSerializer(table, fields, this.format(output, info)), observeVersions);
    const { total, rows } = prepared.base.empty
      ? { total: 0, rows: [] }
      : await this.page(access, op, table, query, prepared, serializer, info.hrefRoots);
    if (total === 0 && version === 'v1p2') await this.assertParents(access, op, ids);
    const status = warningsStatusInfoSet(query.warnings, {
      messageRefIdentifier: info.requestId,
      operationRefIdentifier: op.name,
    });
    return {
      body: envelope(
        RESOURCE_KEYS[op.resource].collection,
        `[${rows.map((r) => serializer.write(r)).join(',')}]`,
        status,
      ),
      headers: {
        'X-Total-Count': String(total),
        'X-Count': String(rows.length),
        Link: buildLinkHeader(info.selfUrl, pickLinkParams(raw), { offset: query.offset, limit: query.limit, total }),
      },
      namesRequest: status !== undefined,
      ...(observeVersions ? { versionsSeen: versionsOfRow(rows[0], serializer.width) } : {}),
    };
  }

  async get(
    access: TenantAccess,
    op: SingleOperation,
    id: string,
    raw: RawQuery,
    info: RequestInfo,
    observeVersions = false,
  ): Promise<RosterResponse> {
    const { version } = info.api;
    const table = tableOf(op.resource, version);
    const { input, base, shared, visible } = await this.prepare(access, op, { id }, version);
    const withheld = withheldOf(shared, op.resource);
    const query = parseSingleQuery(raw, catalogWithout(getCatalog(op.resource, version), withheld), {
      strict: version === 'v1p2',
    });
    const serializer = observing(
      rowSerializer(
        table,
        query.fields ?? defaultFields(table, withheld),
        this.format(outputFor(info.api, access), info),
      ),
      observeVersions,
    );
    const conditions = [`t.sourced_id = ${input.params.typed(id, 'text')}`, ...base.conditions, ...visible];
    const row = base.empty ? undefined : await this.repo.findOne(rowSet(table, conditions, input.params), serializer);
    if (!row) throw new ApiError(ApiErrorCode.NotFound, `No ${op.noun} with sourcedId '${excerpt(id)}'`);
    const status = warningsStatusInfoSet(query.warnings, {
      messageRefIdentifier: info.requestId,
      operationRefIdentifier: op.name,
    });
    return {
      body: envelope(RESOURCE_KEYS[op.resource].single, serializer.write(row), status),
      headers: { 'X-Total-Count': '1' },
      namesRequest: status !== undefined,
      ...(observeVersions ? { versionsSeen: versionsOfRow(row, serializer.width) } : {}),
    };
  }

  /** v1.2: an empty relationship read whose parent is unknown (or invisible) is a 404, not an empty page. */
  private async assertParents(
    access: TenantAccess,
    op: CollectionOperation,
    ids: Readonly<Record<string, string>>,
  ): Promise<void> {
    for (const [param, parent] of Object.entries(op.parents ?? {})) {
      const id = ids[param] ?? '';
      const { input, base, visible } = await this.prepare(access, parent, { id }, 'v1p2');
      const conditions = [`t.sourced_id = ${input.params.typed(id, 'text')}`, ...base.conditions, ...visible];
      if (base.empty || !(await this.repo.exists(rowSet(tableOf(parent.resource, 'v1p2'), conditions, input.params)))) {
        throw new ApiError(ApiErrorCode.NotFound, `Unknown Object: no ${parent.noun} with sourcedId '${excerpt(id)}'`);
      }
    }
  }

  private format(output: OutputSettings, info: RequestInfo): JsonFormat {
    return { dateMode: output.dateMode, booleans: output.booleans, hrefRoots: info.hrefRoots };
  }

  /**
   * The rows an operation starts from, for this caller: the operation's base set, and what the
   * deployment's sharing lets it see (the one place sharing enters the reads): rows of the class
   * it returns, and for a relationship read, a parent it may see (an unshared class has no
   * students to show, even ones shared through another class).
   */
  private async prepare(
    access: TenantAccess,
    op: Pick<CollectionOperation, 'resource' | 'base' | 'parents'>,
    ids: Readonly<Record<string, string>>,
    version: OneRosterVersion,
  ): Promise<PreparedSet> {
    const rosterVersion = access.rosterVersion ?? (await this.versions.version(access.tenantId));
    const visibility = await this.versions.visibility(access.tenantId, rosterVersion, access.rootOrgSourcedId);
    const shared = await this.sharing.visibility(access, rosterVersion);
    const input: BaseSetInput = { params: new SqlParams([access.tenantId]), ids, visibility };
    const prepared = { version: rosterVersion, input, shared };
    // PostgreSQL text cannot hold NUL: such an id names nothing (404 / empty), it is not an error.
    if (Object.values(ids).some((id) => id.includes('\u0000')) || classWithheld(shared, op.resource))
      return { ...prepared, base: { conditions: [], empty: true }, visible: [] };
    const base = op.base(input);
    if (shared.scopeId === null) return { ...prepared, base, visible: [] };
    const scope = input.params.typed(shared.scopeId, 'bigint');
    // A relationship read's rows are a few members of its parent: check each against the scope.
    const check = Object.keys(op.parents ?? {}).length > 0 ? 'probe' : 'join';
    const visible = [visibleCondition(op.resource, scope, 't', check)];
    for (const [param, parent] of Object.entries(op.parents ?? {})) {
      const table = quoteIdent(tableOf(parent.resource, version).table);
      const id = input.params.typed(ids[param] ?? '', 'text');
      visible.push(
        `EXISTS (SELECT 1 FROM ${table} AS p WHERE p.tenant_id = $1::uuid AND p.sourced_id = ${id} AND ${visibleCondition(parent.resource, scope, 'p') ?? 'true'})`,
      );
    }
    return { ...prepared, base, visible: visible.filter((c): c is string => c !== undefined), scopeParam: scope };
  }

  private async page(
    access: TenantAccess,
    op: CollectionOperation,
    table: RosterTable,
    query: CollectionQuery,
    prepared: PreparedSet,
    serializer: RowSerializer,
    hrefRoots: HrefRoots,
  ): Promise<{ total: number; rows: Row[] }> {
    const { version, input, base, shared, visible } = prepared;
    const conditions = [
      ...base.conditions,
      ...visible,
      ...(hidesTombstones(table, query.filter) ? [`t.status = 'active'`] : []),
    ];
    const baseSet = rowSet(table, conditions, input.params);
    const set = query.filter
      ? rowSet(
          table,
          [...conditions, filterToSql(query.filter, { table, params: input.params, hrefRoots })],
          input.params,
        )
      : baseSet;
    const sort = sortToSql(table, query.sort);
    const { offset, limit } = query;
    // A page that is not full ends the set: its end is the total, no count needed (most
    // relationship reads, e.g. the students of a class, fit in one page).
    const ends = (rows: readonly Row[]) => (rows.length > 0 ? rows.length < limit : offset === 0);

    const baseKey = [access.tenantId, version, op.name, ids(input), access.rootOrgSourcedId, shared.sharing.hash];
    let filterKey = '';
    if (query.filter) {
      // The same filter text can mean different things in the two versions (`ext:` values, `roles`).
      const usesHref = filterPredicates(query.filter).some(
        (p) => p.field.subField?.endsWith('href') && p.field.fieldKind !== 'metadata',
      );
      filterKey = `${table.version}|${stringifyFilter(query.filter)}${usesHref ? `|${JSON.stringify(hrefRoots)}` : ''}`;
    }
    const cacheKey = JSON.stringify([...baseKey, filterKey]);

    if (table.changes === 'api') {
      const rows = await this.repo.sortedPage(set, sort.orderBy, serializer, offset, limit);
      return { total: ends(rows) ? offset + rows.length : await this.gradebookTotal(access, set, cacheKey), rows };
    }

    if (op.ordinal && !query.filter && sort.isDefaultOrder) {
      const ranged = await this.rangePage(op, prepared, query, set, serializer, cacheKey);
      if (ranged) return ranged;
    }

    const count = async (): Promise<number> => {
      if (query.filter && histogramCanAnswer(query.filter)) {
        const buckets = await this.histograms.get(JSON.stringify(baseKey), () => this.repo.stampHistogram(baseSet));
        if (buckets) return countFromHistogram(query.filter, buckets);
      }
      return this.repo.count(set);
    };
    const cached = this.totals.peek(cacheKey);
    if (cached !== undefined) {
      return {
        total: cached,
        rows: offset >= cached ? [] : await this.repo.sortedPage(set, sort.orderBy, serializer, offset, limit),
      };
    }
    const rows = await this.repo.sortedPage(set, sort.orderBy, serializer, offset, limit);
    if (ends(rows)) {
      const total = offset + rows.length;
      return { total: await this.totals.get(cacheKey, async () => total), rows };
    }
    return { total: await this.totals.get(cacheKey, count), rows };
  }

  /**
   * The size of a set of rows written through the API, kept per gradebook version (every
   * gradebook write bumps it in its own transaction; an import bumps the roster version in
   * `cacheKey`). A total is kept under the version its own count statement saw, so a kept total is
   * exactly that version's; it is looked up under the version the answer is keyed by.
   */
  private async gradebookTotal(access: TenantAccess, set: RowSet, cacheKey: string): Promise<number> {
    const keyAt = (gradebookVersion: string) => `${cacheKey}|gradebook ${gradebookVersion}`;
    const kept = access.gradebookVersion === undefined ? undefined : this.totals.peek(keyAt(access.gradebookVersion));
    if (kept !== undefined) return kept;
    const { total, gradebookVersion } = await this.repo.countAtGradebookVersion(set);
    return this.totals.get(keyAt(gradebookVersion), async () => total);
  }

  /**
   * Unfiltered default order: an index range, never a skip over earlier rows. Over the dense
   * ordinal of the base set, or for a deployment that sees part of a whole table, over the
   * scope's list of the shared rows (kept in ordinal order). Undefined when neither applies
   * (a role group or session type inside a scope is not a range): the caller pages by offset.
   */
  private async rangePage(
    op: CollectionOperation,
    { input, base, shared, scopeParam }: PreparedSet,
    query: CollectionQuery,
    set: RowSet,
    serializer: RowSerializer,
    cacheKey: string,
  ): Promise<{ total: number; rows: Row[] } | undefined> {
    const { offset, limit } = query;
    const direction = query.sort.direction;
    const ordinal = op.ordinal as OrdinalColumn;
    if (shared.scopeId !== null && scopeParam) {
      const object = listedObject(op.resource);
      if (ordinal !== 'ordinal' || !object) return undefined;
      const scope = { id: shared.scopeId, object, param: scopeParam };
      const whole = rowSet(set.table, base.conditions, input.params);
      const total = await this.totals.get(cacheKey, () => this.repo.sharedTotal(scope));
      const rows =
        offset >= total ? [] : await this.repo.sharedPage(whole, scope, serializer, offset, limit, direction, total);
      return { total, rows };
    }
    const total = () => this.totals.get(cacheKey, () => this.repo.ordinalTotal(set, ordinal));
    if (direction === 'asc') {
      const [n, rows] = await Promise.all([
        total(),
        this.repo.ordinalPage(set, ordinal, serializer, offset, limit, 'asc'),
      ]);
      return { total: n, rows };
    }
    const n = await total();
    const highest = n - 1 - offset;
    return {
      total: n,
      rows: highest < 0 ? [] : await this.repo.ordinalPage(set, ordinal, serializer, highest, limit, 'desc'),
    };
  }
}

/** Path ids in a stable order for cache keys. */
function ids(input: BaseSetInput): string[] {
  return Object.keys(input.ids)
    .sort()
    .map((k) => `${k}=${input.ids[k]}`);
}
