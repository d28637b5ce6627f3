import { bare, GuardedHttp, SourceError, type HttpAnswer } from './guarded-http';

export interface ClientCredentials {
  tokenUrl: string;
  clientId: string;
  clientSecret: string;
  scope?: string;
}

export interface RetryPolicy {
  /** Attempts after the first for 429, 502, 503, 504 and failed connections. */
  retries: number;
  /** Longest wait honoured from Retry-After (longer ones fail the sync). */
  maxWaitMs: number;
  /** First backoff when the source gives no Retry-After (doubling). */
  baseDelayMs: number;
  sleep?: (ms: number) => Promise<void>;
}

const RETRYABLE = new Set([429, 502, 503, 504]);
/** A token is renewed this long before its `expires_in` runs out. */
const TOKEN_MARGIN_MS = 30_000;

const defaultSleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

/** Seconds or an HTTP date (RFC 9110 Retry-After) to milliseconds. */
export function retryAfterMs(value: string | null, now = Date.now()): number | undefined {
  if (!value) return undefined;
  if (/^\d+$/.test(value.trim())) return Number(value.trim()) * 1000;
  const at = Date.parse(value);
  return Number.isNaN(at) ? undefined : Math.max(0, at - now);
}

/**
 * A OneRoster REST client of one source: an OAuth 2.0 client-credentials token (renewed before it
 * expires, and once when the source answers 401), GETs of JSON with retries on 429/503 honouring
 * `Retry-After`, and clear errors naming the URL for everything else.
 */
export class OneRosterClient {
  private token?: { value: string; until: number };

  constructor(
    private readonly http: GuardedHttp,
    private readonly creds: ClientCredentials,
    private readonly retry: RetryPolicy,
  ) {}

  /** GET a URL: its JSON body and headers (any status the caller may handle: 400, 403, 404). */
  async getJson(url: string): Promise<{ status: number; headers: Headers; json: unknown }> {
    let refreshed = false;
    for (;;) {
      const res = await this.withRetries(url, async () =>
        this.http.request(url, {
          headers: { Authorization: `Bearer ${await this.accessToken()}`, Accept: 'application/json' },
        }),
      );
      if (res.status === 401 && !refreshed) {
        refreshed = true;
        this.token = undefined;
        continue;
      }
      if (res.status === 401) throw new SourceError('the source refused the access token (401)', bare(url));
      return {
        status: res.status,
        headers: res.headers,
        json: res.status < 300 ? parseJson(res.body, url) : undefined,
      };
    }
  }

  private async accessToken(): Promise<string> {
    if (this.token && Date.now() < this.token.until) return this.token.value;
    const form = new URLSearchParams({ grant_type: 'client_credentials' });
    if (this.creds.scope) form.set('scope', this.creds.scope);
    const basic = Buffer.from(
      `${encodeURIComponent(this.creds.clientId)}:${encodeURIComponent(this.creds.clientSecret)}`,
    ).toString('base64');
    const res = await this.withRetries(this.creds.tokenUrl, () =>
      this.http.request(this.creds.tokenUrl, {
        method: 'POST',
        headers: {
          Authorization: `Basic ${basic}`,
          'Content-Type': 'application/x-www-form-urlencoded',
          Accept: 'application/json',
        },
        body: form.toString(),
      }),
    );
    if (res.status !== 200)
      throw new SourceError(
        `the token endpoint answered ${res.status}${oauthError(res.body)}`,
        bare(this.creds.tokenUrl),
      );
    const json = parseJson(res.body, this.creds.tokenUrl) as { access_token?: unknown; expires_in?: unknown };
    if (typeof json.access_token !== 'string' || json.access_token === '')
      throw new SourceError('the token answer has no access_token', bare(this.creds.tokenUrl), 'access_token');
    const lifetime = typeof json.expires_in === 'number' && json.expires_in > 0 ? json.expires_in * 1000 : 300_000;
    this.token = { value: json.access_token, until: Date.now() + Math.max(1_000, lifetime - TOKEN_MARGIN_MS) };
    return this.token.value;
  }

  /** Retries what a busy or restarting source answers, waiting as it asks (bounded). */
  private async withRetries(url: string, send: () => Promise<HttpAnswer>): Promise<HttpAnswer> {
    const sleep = this.retry.sleep ?? defaultSleep;
    for (let attempt = 0; ; attempt++) {
      let res: HttpAnswer | undefined;
      let failure: SourceError | undefined;
      try {
        res = await send();
      } catch (err) {
        if (!(err instanceof SourceError) || /not allowed|the URL|larger than/.test(err.message)) throw err;
        failure = err;
      }
      if (res && !RETRYABLE.has(res.status) && res.status < 500) return res;
      if (attempt >= this.retry.retries) {
        if (failure) throw failure;
        throw new SourceError(`the source answered ${res!.status} (after ${attempt + 1} attempts)`, bare(url));
      }
      const asked = res ? retryAfterMs(res.headers.get('retry-after')) : undefined;
      if (asked !== undefined && asked > this.retry.maxWaitMs)
        throw new SourceError(
          `the source asked to wait ${Math.round(asked / 1000)} s (Retry-After), longer than allowed`,
          bare(url),
        );
      await sleep(asked ?? this.retry.baseDelayMs * 2 ** attempt);
    }
  }
}

function parseJson(body: Buffer, url: string): unknown {
  try {
    return JSON.parse(body.toString('utf8'));
  } catch {
    throw new SourceError('the answer is not valid JSON', bare(url));
  }
}

function oauthError(body: Buffer): string {
  try {
    const e = JSON.parse(body.toString('utf8')) as { error?: unknown };
    return typeof e.error === 'string' ? ` (${e.error.slice(0, 100)})` : '';
  } catch {
    return '';
  }
}
