import { Agent, fetch as undiciFetch } from 'undici';
import { webhookTargetProblem, type WebhookTargetPolicy } from '@edu/domain';
import { guardedLookup, systemResolver, type Resolver } from '@edu/http';

/** A problem with the source that ends the sync: what went wrong, and where (URL, field). */
export class SourceError extends Error {
  constructor(
    message: string,
    readonly url?: string,
    readonly field?: string,
  ) {
    super(message);
    this.name = 'SourceError';
  }
}

export interface HttpAnswer {
  status: number;
  headers: Headers;
  body: Buffer;
}

/** The address without its query (tokens and filters stay out of reports). */
export const bare = (url: string) => url.split('?')[0]!;

/**
 * HTTP to a tenant-configured host through the SSRF rule: the URL is checked before any
 * connection and every address its name resolves to at connect time (the address checked is the
 * address connected to). No redirects; answers above `maxBytes` are refused unread; a request
 * not answered in `timeoutMs` fails.
 */
export class GuardedHttp {
  private readonly agent: Agent;

  constructor(
    private readonly policy: WebhookTargetPolicy,
    private readonly o: { timeoutMs: number; maxBytes: number },
    resolver: Resolver = systemResolver,
  ) {
    this.agent = new Agent({
      connect: { timeout: o.timeoutMs, lookup: guardedLookup(resolver, policy.allowPrivate, () => undefined) },
      connections: 16,
    });
  }

  async request(
    url: string,
    init: { method?: string; headers?: Record<string, string>; body?: string },
  ): Promise<HttpAnswer> {
    const problem = webhookTargetProblem(url, this.policy);
    if (problem) throw new SourceError(problem.replace(/^endpoint/, 'the URL'), bare(url));
    let res: Awaited<ReturnType<typeof undiciFetch>>;
    try {
      res = await undiciFetch(url, {
        ...init,
        dispatcher: this.agent,
        redirect: 'manual',
        signal: AbortSignal.timeout(this.o.timeoutMs),
      });
    } catch (err) {
      throw new SourceError(`the request failed: ${describeFailure(err, this.o.timeoutMs)}`, bare(url));
    }
    return { status: res.status, headers: res.headers, body: await this.read(res, url) };
  }

  close(): Promise<void> {
    return this.agent.close();
  }

  private async read(res: Awaited<ReturnType<typeof undiciFetch>>, url: string): Promise<Buffer> {
    const tooBig = () => new SourceError(`the answer is larger than ${this.o.maxBytes} bytes`, bare(url));
    if (Number(res.headers.get('content-length') ?? 0) > this.o.maxBytes) {
      await res.body?.cancel();
      throw tooBig();
    }
    const parts: Uint8Array[] = [];
    let size = 0;
    try {
      for await (const chunk of res.body ?? []) {
        size += chunk.length;
        if (size > this.o.maxBytes) throw tooBig();
        parts.push(chunk);
      }
    } catch (err) {
      if (err instanceof SourceError) throw err;
      throw new SourceError(`the answer could not be read: ${describeFailure(err, this.o.timeoutMs)}`, bare(url));
    }
    return Buffer.concat(parts);
  }
}

function describeFailure(err: unknown, timeoutMs: number): string {
  const e = err as { name?: string; message?: string; cause?: { code?: string; message?: string } };
  if (e.name === 'TimeoutError' || e.name === 'AbortError') return `no answer within ${timeoutMs} ms`;
  if (e.cause?.code === 'E_BLOCKED_TARGET') return e.cause.message ?? 'the address is not allowed';
  return e.cause?.code ?? e.cause?.message ?? e.message ?? 'unknown error';
}
