import { bare, SourceError } from './guarded-http';
import type { OneRosterClient } from './oneroster-client';

export interface PagingOptions {
  /** `limit` asked for (the source may serve fewer). */
  pageSize: number;
  /** Pages fetched at once when the source gives `X-Total-Count`. */
  parallel: number;
  /** More pages than this in one collection: the source is paging forever. */
  maxPages: number;
}

export type CollectionRead = { status: 'read'; records: number } | { status: 'refused'; httpStatus: number };

/** The `rel="next"` URL of a Link header. */
export function nextLink(link: string | null): string | undefined {
  if (!link) return undefined;
  for (const part of link.split(',')) {
    const m = /<([^>]*)>\s*;\s*rel="?([^";]+)"?/.exec(part.trim());
    if (m && m[2]!.split(/\s+/).includes('next')) return m[1];
  }
  return undefined;
}

function recordsOf(json: unknown, key: string, url: string): unknown[] {
  const list = typeof json === 'object' && json !== null ? (json as Record<string, unknown>)[key] : undefined;
  if (!Array.isArray(list)) throw new SourceError(`the answer has no "${key}" list`, bare(url), key);
  return list;
}

/**
 * Reads a whole collection, page by page with `limit`/`offset`, handing each page's records on in
 * order. With `X-Total-Count` the remaining pages are fetched a few at a time; without it the
 * `Link` next page is followed, else offsets until a short page. A first answer other than 200 is
 * returned for the caller to judge (a filter the source cannot do, a collection it does not serve).
 */
export async function readCollection(
  client: OneRosterClient,
  o: PagingOptions & { url: string; key: string; filter?: string },
  onPage: (records: unknown[], url: string) => Promise<void> | void,
): Promise<CollectionRead> {
  const pageUrl = (offset: number) =>
    `${o.url}?limit=${o.pageSize}&offset=${offset}${o.filter ? `&filter=${encodeURIComponent(o.filter)}` : ''}`;
  const firstUrl = pageUrl(0);
  const first = await client.getJson(firstUrl);
  if (first.status !== 200) return { status: 'refused', httpStatus: first.status };
  const records = recordsOf(first.json, o.key, firstUrl);
  await onPage(records, firstUrl);
  const totalHeader = first.headers.get('x-total-count');
  const total = totalHeader !== null && /^\d+$/.test(totalHeader) ? Number(totalHeader) : undefined;
  let read = records.length;
  if (total !== undefined) read += await readCounted(client, o, total, pageUrl, onPage);
  else
    read += await readLinked(
      client,
      o,
      { url: firstUrl, records: records.length, headers: first.headers },
      pageUrl,
      onPage,
    );
  return { status: 'read', records: read };
}

async function readCounted(
  client: OneRosterClient,
  o: PagingOptions & { key: string; url: string },
  total: number,
  pageUrl: (offset: number) => string,
  onPage: (records: unknown[], url: string) => Promise<void> | void,
): Promise<number> {
  if (Math.ceil(total / o.pageSize) > o.maxPages)
    throw new SourceError(`the collection claims ${total} records, more than ${o.maxPages} pages`, bare(o.url));
  const offsets: number[] = [];
  for (let offset = o.pageSize; offset < total; offset += o.pageSize) offsets.push(offset);
  const fetchPage = async (offset: number) => {
    const url = pageUrl(offset);
    const res = await client.getJson(url);
    if (res.status !== 200) throw new SourceError(`the source answered ${res.status}`, bare(url));
    return { url, records: recordsOf(res.json, o.key, url) };
  };
  let read = 0;
  let lastFull = offsets.length === 0 ? false : true;
  const window: Array<Promise<{ url: string; records: unknown[] }>> = [];
  let next = 0;
  while (next < offsets.length || window.length > 0) {
    while (window.length < o.parallel && next < offsets.length) window.push(fetchPage(offsets[next++]!));
    const page = await window.shift()!;
    await onPage(page.records, page.url);
    read += page.records.length;
    lastFull = page.records.length >= o.pageSize;
  }
  // Records added while reading: go on past the counted end until a short page.
  if (lastFull)
    read += await readLinked(
      client,
      o,
      { url: '', records: o.pageSize, headers: new Headers() },
      pageUrl,
      onPage,
      offsets.length + 1,
    );
  return read;
}

async function readLinked(
  client: OneRosterClient,
  o: PagingOptions & { key: string; url: string },
  previous: { url: string; records: number; headers: Headers },
  pageUrl: (offset: number) => string,
  onPage: (records: unknown[], url: string) => Promise<void> | void,
  pagesSoFar = 1,
): Promise<number> {
  let read = 0;
  let pages = pagesSoFar;
  let offset = pages * o.pageSize;
  let last = previous;
  const seen = new Set<string>([previous.url]);
  for (;;) {
    const linked = nextLink(last.headers.get('link'));
    const url = linked ? new URL(linked, o.url).toString() : last.records >= o.pageSize ? pageUrl(offset) : undefined;
    if (!url) return read;
    if (seen.has(url) || ++pages > o.maxPages)
      throw new SourceError(
        `the source keeps paging (more than ${o.maxPages} pages, or a next link repeats)`,
        bare(o.url),
      );
    seen.add(url);
    const res = await client.getJson(url);
    if (res.status !== 200) throw new SourceError(`the source answered ${res.status}`, bare(url));
    const records = recordsOf(res.json, o.key, url);
    if (records.length === 0) return read;
    await onPage(records, url);
    read += records.length;
    offset += records.length;
    last = { url, records: records.length, headers: res.headers };
  }
}
