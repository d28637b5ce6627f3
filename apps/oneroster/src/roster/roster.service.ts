import { Injectable } from '@nestjs/common';
import { ApiError, ApiErrorCode } from '@edu/domain';
import {
  buildLinkHeader,
  excerpt,
  filterPredicates,
  parseCollectionQuery,
  parseSingleQuery,
  pickLinkParams,
  RESOURCE_KEYS,
  stringifyFilter,
  warningsStatusInfoSet,
  type CollectionQuery,
  type RawQuery,
} from '@edu/oneroster-query';
import { LoadingCache } from '../common/lru-cache';
import { OnerosterEnv } from '../config/oneroster.env';
import { filterToSql } from '../query/filter-sql';
import { quoteIdent, ROSTER_TABLES } from '../query/roster-tables';
import { sortToSql } from '../query/sort-sql';
import { SqlParams } from '../query/sql-params';
import type { TenantAccess } from '../tenancy/tenant-access.service';
import { RosterDb } from './roster-db';
import type { BaseSet, BaseSetInput, CollectionOperation, SingleOperation } from './roster-operations';
import { RosterVersionsService } from './roster-versions.service';
import { rowSerializer, type JsonFormat, type RowSerializer } from './roster-serializer';
import { countFromHistogram, histogramCanAnswer, MAX_HISTOGRAM_BUCKETS, type StampBucket } from './stamp-histogram';

/** Where the request came from: what links and hrefs are built on, and the request id. */
export interface RequestInfo {
  /** Service root for hrefs, e.g. `https://host/ims/oneroster/v1p1`. */
  readonly hrefRoot: string;
  /** Absolute URL of the requested path, without query (base of `Link` URLs). */
  readonly selfUrl: string;
  readonly requestId: string;
}

/** A response: the JSON body as text, plus the headers that go with it. */
export interface RosterResponse {
  readonly body: string;
  readonly headers: Readonly<Record<string, string>>;
}

/** `{"<key>":<value>[,"statusInfoSet":[…]]}` from a JSON text already built by the database. */
function envelope(key: string, value: string, status: { statusInfoSet: unknown } | undefined): string {
  return `{${JSON.stringify(key)}:${value}${status ? `,"statusInfoSet":${JSON.stringify(status.statusInfoSet)}` : ''}}`;
}

type Row = Record<string, unknown>;

interface PreparedSet {
  readonly version: string;
  readonly input: BaseSetInput;
  readonly base: BaseSet;
}

/**
 * Reads for every rostering operation: base set → filter → total → sort → page → serialise →
 * field selection (reference §5). Totals are cached per tenant, data version, operation, path
 * ids, org root and canonical filter; an import publishes a new version, so entries are never
 * stale and no replica needs telling.
 */
@Injectable()
export class RosterService {
  private readonly totals: LoadingCache<string, number>;
  private readonly histograms = new LoadingCache<string, readonly StampBucket[] | null>(2_000);

  constructor(
    private readonly db: RosterDb,
    private readonly versions: RosterVersionsService,
    env: OnerosterEnv,
  ) {
    this.totals = new LoadingCache<string, number>(env.ONEROSTER_COUNT_CACHE_ENTRIES);
  }

  async list(access: TenantAccess, op: CollectionOperation, ids: Readonly<Record<string, string>>, raw: RawQuery, info: RequestInfo): Promise<RosterResponse> {
    const query = parseCollectionQuery(raw, op.resource);
    const prepared = await this.prepare(access, op.base, ids);
    const serializer = rowSerializer(op.resource, query.fields, this.format(access, info));
    const { total, rows } = prepared.base.empty ? { total: 0, rows: [] } : await this.page(access, op, query, prepared, serializer, info.hrefRoot);
    const status = warningsStatusInfoSet(query.warnings, { messageRefIdentifier: info.requestId, operationRefIdentifier: op.name });
    return {
      body: envelope(RESOURCE_KEYS[op.resource].collection, `[${rows.map((r) => serializer.write(r)).join(',')}]`, status),
      headers: {
        'X-Total-Count': String(total),
        'X-Count': String(rows.length),
        Link: buildLinkHeader(info.selfUrl, pickLinkParams(raw), { offset: query.offset, limit: query.limit, total }),
      },
    };
  }

  async get(access: TenantAccess, op: SingleOperation, id: string, raw: RawQuery, info: RequestInfo): Promise<RosterResponse> {
    const query = parseSingleQuery(raw, op.resource);
    const prepared = await this.prepare(access, op.base, { id });
    const serializer = rowSerializer(op.resource, query.fields, this.format(access, info));
    const { base } = prepared;
    const { params } = prepared.input;
    let row: Row | undefined;
    if (!base.empty) {
      const idParam = params.typed(id, 'text');
      const table = quoteIdent(ROSTER_TABLES[op.resource].table);
      const where = ['t.tenant_id = $1::uuid', `t.sourced_id = ${idParam}`, ...base.conditions].join(' AND ');
      [row] = await this.db.query<Row>(`SELECT ${serializer.columns} FROM ${table} AS t WHERE ${where}`, params.values);
    }
    if (!row) throw new ApiError(ApiErrorCode.NotFound, `No ${op.noun} with sourcedId '${excerpt(id)}'`);
    const status = warningsStatusInfoSet(query.warnings, { messageRefIdentifier: info.requestId, operationRefIdentifier: op.name });
    return { body: envelope(RESOURCE_KEYS[op.resource].single, serializer.write(row), status), headers: { 'X-Total-Count': '1' } };
  }

  private format(access: TenantAccess, info: RequestInfo): JsonFormat {
    return { dateMode: access.output.dateMode, booleans: access.output.booleans, hrefRoot: info.hrefRoot };
  }

  private async prepare(access: TenantAccess, base: (input: BaseSetInput) => BaseSet, ids: Readonly<Record<string, string>>): Promise<PreparedSet> {
    const version = await this.versions.version(access.tenantId);
    const visibility = await this.versions.visibility(access.tenantId, version, access.rootOrgSourcedId);
    const input: BaseSetInput = { params: new SqlParams([access.tenantId]), ids, visibility };
    // PostgreSQL text cannot hold NUL: such an id names nothing (404 / empty), it is not an error.
    if (Object.values(ids).some((id) => id.includes('\u0000'))) return { version, input, base: { conditions: [], empty: true } };
    return { version, input, base: base(input) };
  }

  private async page(
    access: TenantAccess,
    op: CollectionOperation,
    query: CollectionQuery,
    { version, input, base }: PreparedSet,
    serializer: RowSerializer,
    hrefRoot: string,
  ): Promise<{ total: number; rows: Row[] }> {
    const { params } = input;
    const table = quoteIdent(ROSTER_TABLES[op.resource].table);
    const conditions = ['t.tenant_id = $1::uuid', ...base.conditions];
    const baseKey = [access.tenantId, version, op.name, ids(input), access.rootOrgSourcedId];
    const baseWhere = conditions.join(' AND ');
    const baseValues = params.values;
    let filterKey = '';
    if (query.filter) {
      conditions.push(filterToSql(query.filter, { resource: op.resource, params, hrefRoot }));
      const usesHref = filterPredicates(query.filter).some((p) => p.field.subField === 'href' && p.field.fieldKind !== 'metadata');
      filterKey = `${stringifyFilter(query.filter)}${usesHref ? `|${hrefRoot}` : ''}`;
    }
    const where = conditions.join(' AND ');
    const whereValues = params.values;
    const sort = sortToSql(op.resource, query.sort);
    const cacheKey = JSON.stringify([...baseKey, filterKey]);
    const columns = serializer.columns;

    if (op.ordinal && !query.filter && sort.isDefaultOrder) {
      // Unfiltered default order over a dense ordinal: an index range, never a skip of `offset` rows.
      const ord = `t.${quoteIdent(op.ordinal)}`;
      const totalSql = `SELECT COALESCE(max(${ord}) + 1, 0)::bigint AS n FROM ${table} AS t WHERE ${where}`;
      const total = () => this.totals.get(cacheKey, async () => Number((await this.db.query<{ n: string }>(totalSql, whereValues))[0]?.n ?? 0));
      const rowsParams = new SqlParams(whereValues);
      if (query.sort.direction === 'asc') {
        const from = rowsParams.typed(query.offset, 'bigint');
        const limit = rowsParams.typed(query.limit, 'bigint');
        const rowsSql = `SELECT ${columns} FROM ${table} AS t WHERE ${where} AND ${ord} >= ${from} ORDER BY ${ord} LIMIT ${limit}`;
        const [n, rows] = await Promise.all([total(), this.db.query<Row>(rowsSql, rowsParams.values)]);
        return { total: n, rows };
      }
      const n = await total();
      const highest = n - 1 - query.offset;
      if (highest < 0) return { total: n, rows: [] };
      const to = rowsParams.typed(highest, 'bigint');
      const limit = rowsParams.typed(query.limit, 'bigint');
      const rowsSql = `SELECT ${columns} FROM ${table} AS t WHERE ${where} AND ${ord} <= ${to} ORDER BY ${ord} DESC LIMIT ${limit}`;
      return { total: n, rows: await this.db.query<Row>(rowsSql, rowsParams.values) };
    }

    const countSql = `SELECT count(*)::bigint AS n FROM ${table} AS t WHERE ${where}`;
    const rowsParams = new SqlParams(whereValues);
    const limit = rowsParams.typed(query.limit, 'bigint');
    const offset = rowsParams.typed(query.offset, 'bigint');
    const rowsSql = `SELECT ${columns} FROM ${table} AS t WHERE ${where} ORDER BY ${sort.orderBy} LIMIT ${limit} OFFSET ${offset}`;
    const count = async (): Promise<number> => {
      const filter = query.filter;
      if (filter && histogramCanAnswer(filter)) {
        const buckets = await this.histogram(JSON.stringify(baseKey), table, baseWhere, baseValues);
        if (buckets) return countFromHistogram(filter, buckets);
      }
      return Number((await this.db.query<{ n: string }>(countSql, whereValues))[0]?.n ?? 0);
    };
    const cached = this.totals.peek(cacheKey);
    if (cached !== undefined) {
      if (query.offset >= cached) return { total: cached, rows: [] };
      return { total: cached, rows: await this.db.query<Row>(rowsSql, rowsParams.values) };
    }
    const rows = await this.db.query<Row>(rowsSql, rowsParams.values);
    // A page that is not full ends the set: its end is the total, no count needed (most
    // relationship reads, e.g. the students of a class, fit in one page).
    if (rows.length > 0 ? rows.length < query.limit : query.offset === 0) {
      const total = query.offset + rows.length;
      return { total: await this.totals.get(cacheKey, async () => total), rows };
    }
    return { total: await this.totals.get(cacheKey, count), rows };
  }

  /** (status, dateLastModified) counts of a base set, or null when it has too many distinct pairs. */
  private histogram(key: string, table: string, where: string, values: unknown[]): Promise<readonly StampBucket[] | null> {
    return this.histograms.get(key, async () => {
      const p = new SqlParams(values);
      const limit = p.typed(MAX_HISTOGRAM_BUCKETS + 1, 'integer');
      const rows = await this.db.query<{ status: string; micros: string; n: string }>(
        `SELECT t.status, (extract(epoch FROM t.date_last_modified) * 1000000)::bigint AS micros, count(*)::bigint AS n FROM ${table} AS t WHERE ${where} GROUP BY 1, 2 LIMIT ${limit}`,
        p.values,
      );
      if (rows.length > MAX_HISTOGRAM_BUCKETS) return null;
      return rows.map((r) => ({ status: r.status, micros: BigInt(r.micros), count: Number(r.n) }));
    });
  }
}

/** Path ids in a stable order for cache keys. */
function ids(input: BaseSetInput): string[] {
  return Object.keys(input.ids)
    .sort()
    .map((k) => `${k}=${input.ids[k]}`);
}
