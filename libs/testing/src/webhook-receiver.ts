import { createPublicKey, verify, type JsonWebKey } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** A delivery the receiver got, after checking its signature itself (node:crypto, no jose). */
export interface ReceivedDelivery {
  at: number;
  path: string;
  contentType: string | undefined;
  webhookId: string | undefined;
  attempt: number;
  bytes: number;
  verified: boolean;
  /** Why verification failed, when it did. */
  problem?: string;
  header: Record<string, unknown>;
  claims: Record<string, unknown>;
  /** The status the receiver answered. */
  answered: number;
  /** The request's headers (lower-case names) and its body as text: what a Standard Webhooks library verifies. */
  headers: Record<string, string>;
  body: string;
}

/** How the receiver answers one request: a status, after an optional delay, with optional headers. */
export interface Answer {
  status: number;
  delayMs?: number;
  headers?: Record<string, string>;
  body?: string;
}

export type Responder = (d: ReceivedDelivery, nthForJti: number) => Answer;

/** Keys to verify with: a JWKS URL (fetched when an unknown kid appears) or a fixed list. */
export type KeySource = { jwksUrl: string } | { keys: (JsonWebKey & { kid?: string })[] };

/**
 * A real HTTP endpoint for delivery tests: it reads each body as a compact JWS, verifies the
 * ES256 signature against the JWKS with node:crypto (independently of the code under test),
 * checks `typ`, `exp` and the header kid, records what arrived and answers as told.
 */
export class WebhookReceiver {
  readonly deliveries: ReceivedDelivery[] = [];
  private server?: Server;
  private keys = new Map<string, JsonWebKey>();
  private readonly waiters: (() => void)[] = [];
  responder: Responder = () => ({ status: 200 });
  url = '';

  constructor(private readonly source: KeySource) {
    if ('keys' in source) for (const k of source.keys) if (k.kid) this.keys.set(k.kid, k);
  }

  async start(host = '127.0.0.1'): Promise<this> {
    this.server = createServer((req, res) => void this.handle(req, res));
    this.server.keepAliveTimeout = 60_000;
    await new Promise<void>((resolve) => this.server!.listen(0, host, resolve));
    this.url = `http://${host}:${(this.server.address() as AddressInfo).port}`;
    return this;
  }

  get port(): number {
    return Number(new URL(this.url).port);
  }

  async stop(): Promise<void> {
    this.server?.closeAllConnections();
    await new Promise<void>((resolve) => (this.server ? this.server.close(() => resolve()) : resolve()));
  }

  byJti(jti: string): ReceivedDelivery[] {
    return this.deliveries.filter((d) => d.claims.jti === jti);
  }

  /** Resolves once `predicate` holds over the deliveries received (checked on each arrival). */
  async until(predicate: (all: ReceivedDelivery[]) => boolean, timeoutMs = 20_000): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    while (!predicate(this.deliveries)) {
      if (Date.now() > deadline)
        throw new Error(
          `receiver: condition not met within ${timeoutMs} ms (${this.deliveries.length} deliveries received)`,
        );
      await new Promise<void>((resolve) => {
        const t = setTimeout(resolve, 100);
        this.waiters.push(() => (clearTimeout(t), resolve()));
      });
    }
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    const body = Buffer.concat(chunks).toString('utf8');
    const d: ReceivedDelivery = {
      at: Date.now(),
      path: req.url ?? '',
      contentType: req.headers['content-type'],
      webhookId: req.headers['webhook-id'] as string | undefined,
      attempt: Number(req.headers['webhook-attempt'] ?? 0),
      bytes: body.length,
      verified: false,
      header: {},
      claims: {},
      answered: 0,
      headers: Object.fromEntries(Object.entries(req.headers).map(([k, v]) => [k, String(v)])),
      body,
    };
    try {
      await this.verify(body, d);
    } catch (err) {
      d.problem = err instanceof Error ? err.message : String(err);
    }
    const jti = d.claims.jti;
    const nth = this.deliveries.filter((x) => x.claims.jti === jti).length + 1;
    const answer = this.responder(d, nth);
    d.answered = answer.status;
    this.deliveries.push(d);
    this.waiters.splice(0).forEach((w) => w());
    if (answer.delayMs) await new Promise((r) => setTimeout(r, answer.delayMs));
    if (!res.destroyed)
      res
        .writeHead(answer.status, { 'content-type': 'text/plain', ...(answer.headers ?? {}) })
        .end(answer.body ?? 'ok');
  }

  private async verify(token: string, d: ReceivedDelivery): Promise<void> {
    const parts = token.split('.');
    if (parts.length !== 3) throw new Error('not a compact JWS');
    d.header = JSON.parse(Buffer.from(parts[0], 'base64url').toString('utf8'));
    d.claims = JSON.parse(Buffer.from(parts[1], 'base64url').toString('utf8'));
    if (d.header.alg !== 'ES256') throw new Error(`unexpected alg ${String(d.header.alg)}`);
    const kid = String(d.header.kid);
    const jwk = this.keys.get(kid) ?? (await this.fetchKey(kid));
    if (!jwk) throw new Error(`kid ${kid} is not in the JWKS`);
    const ok = verify(
      'sha256',
      Buffer.from(`${parts[0]}.${parts[1]}`),
      { key: createPublicKey({ key: jwk, format: 'jwk' }), dsaEncoding: 'ieee-p1363' },
      Buffer.from(parts[2], 'base64url'),
    );
    if (!ok) throw new Error('bad signature');
    const now = Math.floor(Date.now() / 1000);
    if (typeof d.claims.exp !== 'number' || d.claims.exp < now - 5) throw new Error('expired');
    d.verified = true;
  }

  private async fetchKey(kid: string): Promise<JsonWebKey | undefined> {
    if (!('jwksUrl' in this.source)) return undefined;
    const res = await fetch(this.source.jwksUrl);
    const { keys } = (await res.json()) as { keys: (JsonWebKey & { kid: string })[] };
    for (const k of keys) this.keys.set(k.kid, k);
    return this.keys.get(kid);
  }
}
