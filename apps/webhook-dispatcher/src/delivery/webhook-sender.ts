import { isIP } from 'node:net';
import { Agent, request } from 'undici';
import { webhookTargetProblem, type WebhookTargetPolicy } from '@edu/domain';
import type { AttemptErrorCode } from '@edu/persistence';
import { guardedLookup, type Resolver } from '@edu/http';

export interface SendResult {
  startedAt: Date;
  durationMs: number;
  /** HTTP status, when the endpoint answered. */
  status: number | null;
  /** Null when the answer was a 2xx in time. */
  errorCode: AttemptErrorCode | null;
  errorMessage: string | null;
  /** The first bytes of the response body. */
  excerpt: string | null;
  resolvedIp: string | null;
  /** The answer's Retry-After header, when it had one. */
  retryAfter: string | null;
}

export interface SenderOptions {
  policy: WebhookTargetPolicy;
  timeoutMs: number;
  connectionsPerOrigin: number;
  resolver: Resolver;
  userAgent: string;
}

const EXCERPT_BYTES = 2_048;
const CONNECT_TIMEOUT_MS = 10_000;

const TLS_CODES = /^(ERR_TLS|ERR_SSL|CERT_|UNABLE_TO_|DEPTH_ZERO|SELF_SIGNED|HOSTNAME_MISMATCH|ERR_OSSL)/;

function errorCodeOf(err: unknown): { code: AttemptErrorCode; message: string } {
  const chain: { code?: unknown; name?: string; message?: string }[] = [];
  for (let e = err as { cause?: unknown } | undefined; e && chain.length < 5; e = e.cause as typeof e)
    chain.push(e as never);
  // Node errors carry a string `code`; an aborted request is a DOMException told apart by its name.
  const codes = chain.flatMap((e) => [typeof e.code === 'string' ? e.code : '', e.name ?? '']);
  const message =
    chain
      .map((e) => e.message)
      .filter(Boolean)
      .join(': ')
      .slice(0, 500) || String(err);
  const has = (test: (c: string) => boolean) => codes.some(test);
  if (has((c) => c === 'E_BLOCKED_TARGET')) return { code: 'E_BLOCKED_TARGET', message };
  if (
    has(
      (c) =>
        c === 'TimeoutError' || c === 'AbortError' || c === 'UND_ERR_HEADERS_TIMEOUT' || c === 'UND_ERR_BODY_TIMEOUT',
    )
  )
    return { code: 'E_TIMEOUT', message };
  if (has((c) => c === 'ENOTFOUND' || c === 'EAI_AGAIN' || c === 'EAI_FAIL' || c === 'ENODATA'))
    return { code: 'E_DNS', message };
  if (has((c) => TLS_CODES.test(c))) return { code: 'E_TLS', message };
  if (has((c) => /^(ECONN|EHOST|ENET|EPIPE|ETIMEDOUT|UND_ERR_(SOCKET|CONNECT|CLOSED))/.test(c)))
    return { code: 'E_CONNECT', message };
  return { code: 'E_UNKNOWN', message };
}

async function readExcerpt(body: AsyncIterable<Buffer> & { destroy(): void }): Promise<string> {
  const parts: Buffer[] = [];
  let size = 0;
  try {
    for await (const chunk of body) {
      parts.push(chunk);
      size += chunk.length;
      if (size >= EXCERPT_BYTES) break;
    }
  } catch {
    /* the excerpt is best effort: a body cut short still leaves the status */
  } finally {
    body.destroy();
  }
  return Buffer.concat(parts).subarray(0, EXCERPT_BYTES).toString('utf8');
}

/**
 * POSTs signed deliveries: keep-alive pools per origin, the SSRF policy on every send (IP-literal
 * hosts here, names at connect time), no redirects, one deadline over connect, send and response
 * headers. Success is a 2xx within the deadline; everything else is a classified failure.
 */
export class WebhookSender {
  private readonly agent: Agent;
  private readonly lastAddress = new Map<string, string>();

  constructor(private readonly o: SenderOptions) {
    this.agent = new Agent({
      connections: o.connectionsPerOrigin,
      keepAliveTimeout: 30_000,
      connect: {
        timeout: Math.min(CONNECT_TIMEOUT_MS, o.timeoutMs),
        lookup: guardedLookup(o.resolver, o.policy.allowPrivate, (host, address) =>
          this.lastAddress.set(host, address),
        ),
      },
    });
  }

  async send(url: string, token: Buffer, headers: Record<string, string>): Promise<SendResult> {
    const startedAt = new Date();
    const started = performance.now();
    const done = (
      r: Omit<SendResult, 'startedAt' | 'durationMs' | 'retryAfter'>,
      retryAfter?: unknown,
    ): SendResult => ({
      startedAt,
      durationMs: Math.round(performance.now() - started),
      ...r,
      retryAfter: typeof retryAfter === 'string' ? retryAfter.slice(0, 100) : null,
    });
    const problem = webhookTargetProblem(url, this.o.policy);
    if (problem)
      return done({
        status: null,
        errorCode: 'E_BLOCKED_TARGET',
        errorMessage: problem,
        excerpt: null,
        resolvedIp: null,
      });
    const host = new URL(url).hostname.replace(/^\[|\]$/g, '');
    try {
      const res = await request(url, {
        method: 'POST',
        dispatcher: this.agent,
        signal: AbortSignal.timeout(this.o.timeoutMs),
        headers: { 'content-type': 'application/jwt', 'user-agent': this.o.userAgent, ...headers },
        body: token,
      });
      const excerpt = await readExcerpt(res.body as never);
      const resolvedIp = isIP(host) ? host : (this.lastAddress.get(host) ?? null);
      const status = res.statusCode;
      if (status >= 200 && status <= 299)
        return done({ status, errorCode: null, errorMessage: null, excerpt, resolvedIp });
      const redirect = status >= 300 && status <= 399;
      return done(
        {
          status,
          errorCode: redirect ? 'E_REDIRECT' : 'E_HTTP',
          errorMessage: redirect
            ? `redirect to ${String(res.headers.location ?? '(no location)').slice(0, 300)} not followed`
            : `HTTP ${status}`,
          excerpt,
          resolvedIp,
        },
        res.headers['retry-after'],
      );
    } catch (err) {
      const { code, message } = errorCodeOf(err);
      return done({
        status: null,
        errorCode: code,
        errorMessage: message,
        excerpt: null,
        resolvedIp: isIP(host) ? host : (this.lastAddress.get(host) ?? null),
      });
    }
  }

  close(): Promise<void> {
    return this.agent.close();
  }
}
