/**
 * The HTTP-caching scenarios of `run.ts`: partners (apps deployed at the bench tenant), and whole
 * syncs of the users collection (`limit=1000`, every page in order) by ten partners at once,
 * timed wall clock against the service with its response cache, the same partners revalidating
 * with If-None-Match, and the raw node:http + pg baseline paging the same rows.
 */
import { createDataSource } from '@edu/persistence';
import { deployBenchApp } from './apps';
import type { BenchIssuer } from './issuer';

/** Partners paging at once in a sync scenario (a night's worth of sync clients, ../shared/design/scale.md). */
export const SYNC_PARTNERS = 10;
/** Page size of a sync: the largest page OneRoster serves. */
export const SYNC_LIMIT = 1000;

export interface Partner {
  readonly deploymentId: string;
  readonly appId: string;
}

/** `count` apps deployed at the tenant, each with its own deployment (partners with the same scopes share cached answers). */
export async function createPartners(
  url: string,
  tenantId: string,
  scopes: string[],
  count: number,
): Promise<Partner[]> {
  const ds = createDataSource({ url, poolSize: 1, applicationName: 'bench-setup' });
  await ds.initialize();
  try {
    const partners: Partner[] = [];
    for (let i = 0; i < count; i++) {
      partners.push(await deployBenchApp(ds, tenantId, `Bench Partner ${i + 1}`, scopes));
    }
    return partners;
  } finally {
    await ds.destroy();
  }
}

/** A fresh token per partner (a second sync is a new client-credentials grant). */
export function partnerHeaders(
  issuer: BenchIssuer,
  tenantId: string,
  scopes: string[],
  partners: readonly Partner[],
): Promise<Array<Record<string, string>>> {
  return Promise.all(
    partners.map(async (p) => ({
      authorization: `Bearer ${await issuer.mint({ scopes, tenantId, deploymentId: p.deploymentId, sub: p.appId })}`,
    })),
  );
}

export interface SyncResult {
  name: string;
  partners: number;
  pages: number;
  wallSeconds: number;
  /** Wall time over pages: the mean time of one page request while every partner pages at once. */
  msPerPage: number;
  /** Answers by status, over every partner. */
  statuses: Record<string, number>;
  megabytes: number;
}

interface SyncTarget {
  baseUrl: string;
  /** The n-th page's path. */
  pageOf: (offset: number, limit: number) => string;
  headers: ReadonlyArray<Record<string, string>>;
  /** Per partner: tags of a previous sync, sent as If-None-Match; filled with this sync's tags. */
  tags?: Array<Map<string, string>>;
}

/** One partner paging every page in order; returns bytes received. */
async function syncOne(
  target: SyncTarget,
  partner: number,
  pages: number,
  statuses: Record<string, number>,
): Promise<number> {
  let bytes = 0;
  const tags = target.tags?.[partner];
  for (let page = 0; page < pages; page++) {
    const path = target.pageOf(page * SYNC_LIMIT, SYNC_LIMIT);
    const known = tags?.get(path);
    const res = await fetch(`${target.baseUrl}${path}`, {
      headers: { ...target.headers[partner], ...(known ? { 'if-none-match': known } : {}) },
    });
    bytes += (await res.arrayBuffer()).byteLength;
    statuses[res.status] = (statuses[res.status] ?? 0) + 1;
    const etag = res.headers.get('etag');
    if (tags && etag) tags.set(path, etag);
  }
  return bytes;
}

/** Every partner pages the whole collection at once; wall time from the first request to the last answer. */
export async function timeSync(name: string, target: SyncTarget, pages: number): Promise<SyncResult> {
  const statuses: Record<string, number> = {};
  const started = process.hrtime.bigint();
  const bytes = await Promise.all(target.headers.map((_, i) => syncOne(target, i, pages, statuses)));
  const wallSeconds = Number(process.hrtime.bigint() - started) / 1e9;
  const partners = target.headers.length;
  return {
    name,
    partners,
    pages,
    wallSeconds: Math.round(wallSeconds * 1000) / 1000,
    msPerPage: Math.round(((wallSeconds * 1000) / pages) * 100) / 100,
    statuses,
    megabytes: Math.round(bytes.reduce((a, b) => a + b, 0) / 1e4) / 100,
  };
}

/**
 * The If-None-Match scenario: users page 1 revalidated with the tag the service gave it, which
 * must answer 304 (counted as success) without reading a row.
 */
export async function revalidationScenario(serviceUrl: string, path: string, headers: Record<string, string>) {
  const etag = (await fetch(`${serviceUrl}${path}`, { headers })).headers.get('etag');
  if (!etag) throw new Error(`${path}: no ETag`);
  const check = await fetch(`${serviceUrl}${path}`, { headers: { ...headers, 'if-none-match': etag } });
  if (check.status !== 304) throw new Error(`${path} with If-None-Match: HTTP ${check.status}`);
  return {
    name: 'If-None-Match users page 1 (304)',
    target: 'service' as const,
    path: () => path,
    headers: { 'if-none-match': etag },
    expect: 304,
  };
}

export interface SyncSetup {
  /** The service with its response cache on. */
  cachedUrl: string;
  baselineUrl: string;
  /** The service's users collection path (the v1.1 root). */
  usersPath: string;
  /** X-Total-Count of the users collection: the partners page until they have it all. */
  total: number;
  /** Tokens of the first sync and of the second (fresh tokens of the same deployments). */
  first: ReadonlyArray<Record<string, string>>;
  second: ReadonlyArray<Record<string, string>>;
  log: (message: string) => void;
}

/**
 * The second-sync scenarios, in order: the first sync (nothing cached for these deployments yet),
 * the second sync with fresh tokens (the response cache's answers), the third revalidating every
 * page with the tags of the second (304s), and the raw baseline paging the same rows.
 */
export async function runSyncs(s: SyncSetup): Promise<SyncResult[]> {
  const pages = Math.max(1, Math.ceil(s.total / SYNC_LIMIT));
  const service = (headers: ReadonlyArray<Record<string, string>>, tags?: Array<Map<string, string>>): SyncTarget => ({
    baseUrl: s.cachedUrl,
    pageOf: (offset, limit) => `${s.usersPath}?limit=${limit}&offset=${offset}`,
    headers,
    tags,
  });
  const tags = s.first.map(() => new Map<string, string>());
  const results: SyncResult[] = [];
  const record = (r: SyncResult) => {
    results.push(r);
    s.log(
      `${r.name}: ${r.partners} x ${r.pages} pages in ${r.wallSeconds} s (${r.msPerPage} ms/page), ${JSON.stringify(r.statuses)}, ${r.megabytes} MB`,
    );
  };
  record(await timeSync('sync 1: first (uncached)', service(s.first), pages));
  record(await timeSync('sync 2: second, new tokens (response cache)', service(s.second, tags), pages));
  record(await timeSync('sync 3: revalidating (If-None-Match)', service(s.second, tags), pages));
  const baseline = {
    baseUrl: s.baselineUrl,
    pageOf: (offset: number, limit: number) => `/users?offset=${offset}&limit=${limit}`,
    headers: s.first.map(() => ({})),
  };
  record(await timeSync('baseline node:http+pg sync', baseline, pages));
  return results;
}

/** The sync lines of the printed table, each beside the baseline's wall time. */
export function syncLines(results: readonly SyncResult[]): string[] {
  const baseline = results.find((r) => r.name.startsWith('baseline'));
  const lines = ['', `syncs (${SYNC_PARTNERS} partners at once, limit ${SYNC_LIMIT}, every page of users):`];
  for (const r of results) {
    const ratio =
      baseline && !r.name.startsWith('baseline')
        ? `, ${(r.wallSeconds / baseline.wallSeconds).toFixed(2)} x baseline wall time`
        : '';
    lines.push(
      `  ${r.name}: ${r.wallSeconds} s, ${r.msPerPage} ms/page, ${JSON.stringify(r.statuses)}, ${r.megabytes} MB${ratio}`,
    );
  }
  return lines;
}
