/** The soak's HTTP client: every answer is recorded in the current minute; tokens are refreshed on a schedule. */
import type { Credentials } from './partners';
import type { AnswerRecorder } from './stats';

export interface Answer {
  readonly status: number;
  readonly headers: Headers;
  readonly body: unknown;
}

/** How long a client keeps a token before asking again (partners refresh long before the hour is up). */
export const TOKEN_REFRESH_MS = 30_000;
const REQUEST_TIMEOUT_MS = 30_000;

export class SoakHttp {
  private readonly tokens = new Map<string, { token: string; at: number }>();

  constructor(
    private readonly identityUrl: string,
    private readonly minute: () => AnswerRecorder,
  ) {}

  /** One request; a network failure or timeout counts as status 0 (a failure, like a 5xx). */
  async call(what: string, url: string, init: RequestInit = {}, client?: string): Promise<Answer> {
    const started = performance.now();
    try {
      const res = await fetch(url, { ...init, signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS) });
      const text = await res.text();
      const retryAfter = res.headers.get('retry-after');
      this.minute().record(res.status, performance.now() - started, what, { url, retryAfter, body: text, client });
      return { status: res.status, headers: res.headers, body: parse(text) };
    } catch (err) {
      const error = failureOf(err);
      this.minute().record(0, performance.now() - started, what, { url, retryAfter: null, error, client });
      return { status: 0, headers: new Headers(), body: undefined };
    }
  }

  /** A bearer token for the client, from the cache or a fresh client-credentials grant. */
  async token(client: Credentials): Promise<string | undefined> {
    const cached = this.tokens.get(client.id);
    if (cached && Date.now() - cached.at < TOKEN_REFRESH_MS) return cached.token;
    const answer = await this.call(
      'POST /oauth/token',
      `${this.identityUrl}/oauth/token`,
      {
        method: 'POST',
        headers: {
          Authorization: `Basic ${Buffer.from(`${client.id}:${client.secret}`).toString('base64')}`,
          'Content-Type': 'application/x-www-form-urlencoded',
        },
        body: new URLSearchParams({
          grant_type: 'client_credentials',
          ...(client.tenantId ? { tenant_id: client.tenantId } : {}),
        }),
      },
      client.id,
    );
    const token = (answer.body as { access_token?: string } | undefined)?.access_token;
    if (answer.status !== 200 || !token) return cached?.token;
    this.tokens.set(client.id, { token, at: Date.now() });
    return token;
  }

  /** A call as the client (skipped, not counted, while it has no token). */
  async as(client: Credentials, what: string, url: string, init: RequestInit = {}): Promise<Answer | undefined> {
    const token = await this.token(client);
    if (!token) return undefined;
    return this.call(
      what,
      url,
      { ...init, headers: { ...(init.headers as Record<string, string>), Authorization: `Bearer ${token}` } },
      client.id,
    );
  }
}

/** Why a request got no answer: the socket error's code (ECONNREFUSED, ECONNRESET, ...) or the timeout. */
function failureOf(err: unknown): string {
  if (err instanceof Error && err.name === 'TimeoutError') return 'timeout';
  const cause = (err as { cause?: { code?: string; message?: string } } | undefined)?.cause;
  return cause?.code ?? cause?.message ?? String(err);
}

function parse(text: string): unknown {
  try {
    return text ? JSON.parse(text) : undefined;
  } catch {
    return text;
  }
}

/** The URL of a `Link: <…>; rel="next"` header, if any. */
export function nextLink(headers: Headers): string | undefined {
  return /<([^>]+)>;\s*rel="next"/.exec(headers.get('link') ?? '')?.[1];
}

export const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));
