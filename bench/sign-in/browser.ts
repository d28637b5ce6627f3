/**
 * A cookie-keeping browser for the benchmark, timing every request under the step it belongs to
 * (cookies per host name, as browsers keep them; redirects and `<meta http-equiv="refresh">`
 * pages followed one request at a time).
 */
export interface Hop {
  url: string;
  status: number;
  location?: string;
  body: string;
}

const unescape = (s: string): string =>
  s
    .replace(/&amp;/g, '&')
    .replace(/&quot;/g, '"')
    .replace(/&#(\d+);/g, (_m, n: string) => String.fromCharCode(Number(n)));

export class TimedBrowser {
  private readonly jar = new Map<string, Map<string, string>>();
  /** Milliseconds spent per step name, summed over this browser's requests. */
  readonly steps = new Map<string, number>();

  constructor(private readonly stepOf: (method: string, url: URL) => string) {}

  async request(url: string, init: { method?: string; body?: string } = {}): Promise<Hop> {
    const u = new URL(url);
    const cookies = this.cookies(u.hostname);
    const headers: Record<string, string> = init.body ? { 'content-type': 'application/x-www-form-urlencoded' } : {};
    if (cookies.size) headers.cookie = [...cookies].map(([k, v]) => `${k}=${v}`).join('; ');
    const started = performance.now();
    const res = await fetch(u, { method: init.method ?? 'GET', body: init.body, headers, redirect: 'manual' });
    const body = await res.text();
    const step = this.stepOf(init.method ?? 'GET', u);
    this.steps.set(step, (this.steps.get(step) ?? 0) + performance.now() - started);
    for (const line of res.headers.getSetCookie()) this.store(cookies, line);
    const location = res.headers.get('location');
    return { url: u.href, status: res.status, location: location ? new URL(location, u).href : undefined, body };
  }

  /** Follows redirects and refresh pages until `stop(next)` or a page that goes nowhere. */
  async follow(hop: Hop, stop: (next: string) => boolean): Promise<Hop> {
    for (let next = nextOf(hop); next && !stop(next); next = nextOf(hop)) hop = await this.request(next);
    return { ...hop, location: nextOf(hop) };
  }

  /** Time spent outside HTTP (openid-client's token request and checks) under a step name. */
  async time<T>(step: string, work: () => Promise<T>): Promise<T> {
    const started = performance.now();
    try {
      return await work();
    } finally {
      this.steps.set(step, (this.steps.get(step) ?? 0) + performance.now() - started);
    }
  }

  private cookies(host: string): Map<string, string> {
    let m = this.jar.get(host);
    if (!m) this.jar.set(host, (m = new Map()));
    return m;
  }

  private store(cookies: Map<string, string>, line: string): void {
    const [pair, ...attrs] = line.split(';');
    const i = pair.indexOf('=');
    const [name, value] = [pair.slice(0, i).trim(), pair.slice(i + 1).trim()];
    if (value === '' || attrs.some((a) => /^\s*max-age=0\s*$/i.test(a))) cookies.delete(name);
    else cookies.set(name, value);
  }
}

function nextOf(hop: Hop): string | undefined {
  if (hop.status >= 300 && hop.status < 400) return hop.location;
  const m = /<meta http-equiv="refresh" content="0; ?url=([^"]+)">/i.exec(hop.body);
  return m ? new URL(unescape(m[1]), hop.url).href : undefined;
}

/** The post of the first form whose action matches and that holds `extra`'s values, with them set. */
export function formPost(hop: Hop, action: RegExp, extra: Record<string, string>): { url: string; body: string } {
  for (const m of hop.body.matchAll(/<form method="post" action="([^"]+)"[^>]*>([\s\S]*?)<\/form>/g)) {
    if (!action.test(m[1]) || !Object.values(extra).every((v) => m[2].includes(`value="${v}"`))) continue;
    const fields = new URLSearchParams();
    for (const i of m[2].matchAll(/<input type="hidden" name="([^"]+)" value="([^"]*)">/g))
      fields.set(i[1], unescape(i[2]));
    for (const [k, v] of Object.entries(extra)) fields.set(k, v);
    return { url: new URL(unescape(m[1]), hop.url).href, body: fields.toString() };
  }
  throw new Error(
    `no form for ${JSON.stringify(extra)} at ${hop.url} (HTTP ${hop.status}): ${hop.body
      .replace(/<[^>]+>/g, ' ')
      .replace(/\s+/g, ' ')
      .slice(0, 300)}`,
  );
}
