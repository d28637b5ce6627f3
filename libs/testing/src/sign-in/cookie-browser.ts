/** One HTTP response seen by the browser. */
export interface BrowserResponse {
  status: number;
  url: string;
  location?: string;
  headers: Headers;
  body: string;
}

/**
 * A minimal browser for HTTP-level sign-in tests: a cookie jar per host name (cookies ignore
 * ports, as in browsers; names and values, expiry by Max-Age=0 or a past Expires), redirects followed one at a time so a test sees every hop.
 */
export class CookieBrowser {
  private readonly jar = new Map<string, Map<string, string>>();

  cookies(host: string): Map<string, string> {
    let m = this.jar.get(host);
    if (!m) this.jar.set(host, (m = new Map()));
    return m;
  }

  async get(url: string): Promise<BrowserResponse> {
    return this.request(url, { method: 'GET' });
  }

  async request(url: string, init: RequestInit): Promise<BrowserResponse> {
    const u = new URL(url);
    const cookie = [...this.cookies(u.hostname)].map(([k, v]) => `${k}=${v}`).join('; ');
    const res = await fetch(u, {
      ...init,
      redirect: 'manual',
      headers: { ...(init.headers as Record<string, string>), ...(cookie ? { cookie } : {}) },
    });
    for (const line of res.headers.getSetCookie()) this.store(u.hostname, line);
    const location = res.headers.get('location');
    return {
      status: res.status,
      url,
      location: location ? new URL(location, u).href : undefined,
      headers: res.headers,
      body: await res.text(),
    };
  }

  /** Follows redirects from `url` until a response that is not one, or until `stop(url)` says so. */
  async follow(url: string, stop: (next: string) => boolean = () => false, max = 15): Promise<BrowserResponse> {
    let res = await this.get(url);
    for (let i = 0; i < max && res.location && res.status >= 300 && res.status < 400; i++) {
      if (stop(res.location)) return res;
      res = await this.get(res.location);
    }
    return res;
  }

  private store(host: string, line: string): void {
    const [pair, ...attrs] = line.split(';');
    const i = pair.indexOf('=');
    const name = pair.slice(0, i).trim();
    const value = pair.slice(i + 1).trim();
    const expired = attrs.some(
      (a) =>
        /^\s*max-age=0\s*$/i.test(a) || (/^\s*expires=/i.test(a) && new Date(a.split('=')[1]).getTime() < Date.now()),
    );
    if (expired || value === '') this.cookies(host).delete(name);
    else this.cookies(host).set(name, value);
  }
}
