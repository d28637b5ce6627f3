/**
 * RFC 8288 `Link` header for a page of a collection (reference §5.1): `first`, `prev` (not on
 * the first page), `next` (not on the last page) and `last`, each URL repeating the request's
 * other parameters with the page's `limit` and `offset`.
 */
import { paramValues, type RawQuery } from '../params/raw-params';

export interface PageWindow {
  /** Offset of the current page (>= 0). */
  readonly offset: number;
  /** Page size in effect (>= 1). */
  readonly limit: number;
  /** Records matching the request after filtering (X-Total-Count). */
  readonly total: number;
}

export type LinkRel = 'first' | 'prev' | 'next' | 'last';

export interface PageLink {
  readonly rel: LinkRel;
  readonly offset: number;
  readonly url: string;
}

/** Parameters to repeat in every link, in order. `limit` / `offset` entries are ignored. */
export type LinkParams = Readonly<Record<string, string | readonly string[] | undefined>>;

/** Parameters that shape a result and must survive paging, in their canonical spelling. */
export const PRESERVED_QUERY_PARAMS = ['filter', 'data_field', 'sort', 'orderBy', 'fields'] as const;

/** Percent-encodes a query component per RFC 3986 (also `!'()*`, which encodeURIComponent leaves alone). */
export function encodeQueryComponent(text: string): string {
  return encodeURIComponent(text).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
}

/**
 * Picks the parameters to preserve from a decoded query (names matched case-insensitively,
 * emitted canonically; repeated `fields` joined with commas). Call it after the query parsed.
 */
export function pickLinkParams(raw: RawQuery): Record<string, string> {
  const picked: Record<string, string> = {};
  for (const name of PRESERVED_QUERY_PARAMS) {
    const values = paramValues(raw, name);
    if (values.length === 0) continue;
    picked[name] = name === 'fields' ? values.join(',') : (values[0] as string);
  }
  return picked;
}

function checkWindow({ offset, limit, total }: PageWindow): void {
  if (!Number.isSafeInteger(limit) || limit < 1) throw new RangeError(`limit must be a positive integer, got ${limit}`);
  if (!Number.isSafeInteger(offset) || offset < 0)
    throw new RangeError(`offset must be a non-negative integer, got ${offset}`);
  if (!Number.isSafeInteger(total) || total < 0)
    throw new RangeError(`total must be a non-negative integer, got ${total}`);
}

function pageUrl(base: string, params: LinkParams, limit: number, offset: number): string {
  const parts = [`limit=${limit}`, `offset=${offset}`];
  for (const [name, value] of Object.entries(params)) {
    const lower = name.toLowerCase();
    if (value === undefined || lower === 'limit' || lower === 'offset') continue;
    const values: readonly string[] = typeof value === 'string' ? [value] : value;
    for (const v of values) parts.push(`${encodeQueryComponent(name)}=${encodeQueryComponent(v)}`);
  }
  return `${base}?${parts.join('&')}`;
}

/** The links of a page, in the order first, prev, next, last. `baseUrl` loses any query or fragment. */
export function pageLinks(baseUrl: string, params: LinkParams, window: PageWindow): PageLink[] {
  checkWindow(window);
  const { offset, limit, total } = window;
  const base = baseUrl.split(/[?#]/, 1)[0] as string;
  const lastOffset = Math.floor(Math.max(total - 1, 0) / limit) * limit;
  const links: Array<{ rel: LinkRel; offset: number }> = [{ rel: 'first', offset: 0 }];
  if (offset > 0) links.push({ rel: 'prev', offset: Math.max(0, offset - limit) });
  if (offset + limit < total) links.push({ rel: 'next', offset: offset + limit });
  links.push({ rel: 'last', offset: lastOffset });
  return links.map((l) => ({ ...l, url: pageUrl(base, params, limit, l.offset) }));
}

/** The `Link` header value: `<url>; rel="first", <url>; rel="next", …` on one line. */
export function buildLinkHeader(baseUrl: string, params: LinkParams, window: PageWindow): string {
  return pageLinks(baseUrl, params, window)
    .map((link) => `<${link.url}>; rel="${link.rel}"`)
    .join(', ');
}
