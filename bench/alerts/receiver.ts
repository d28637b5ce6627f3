/**
 * The benchmark's webhook receiver, run as its own process: it verifies every JWT's ES256
 * signature against the identity service's JWKS with node:crypto, counts deliveries per path and
 * per `jti` (duplicates), and answers 200 at once. `GET /stats?path=/x` reports the counts,
 * `DELETE /stats?path=/x` forgets them; `GET /received?path=/x` lists each verified `jti` with the
 * message it carried and how often it came (the chaos bench's lost and duplicated deliveries).
 * Started with JWKS_URL and the socket the bench hands it (LISTEN_FD), or RECEIVER_PORT.
 */
import { createPublicKey, verify, type JsonWebKey, type KeyObject } from 'node:crypto';
import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';

interface PathStats {
  received: number;
  invalid: number;
  bytes: number;
  jtis: Set<string>;
  /** Verified deliveries by jti: the message id and how many times it arrived. */
  byJti: Map<string, { message: string | undefined; times: number }>;
  firstAt: number;
  lastAt: number;
}

const stats = new Map<string, PathStats>();
const keys = new Map<string, KeyObject>();
const jwksUrl = process.env.JWKS_URL as string;

async function keyFor(kid: string): Promise<KeyObject | undefined> {
  if (!keys.has(kid)) {
    const { keys: list } = (await (await fetch(jwksUrl)).json()) as { keys: (JsonWebKey & { kid: string })[] };
    for (const k of list) keys.set(k.kid, createPublicKey({ key: k, format: 'jwk' }));
  }
  return keys.get(kid);
}

/** The `jti` claim and the message id, read from the start of the payload: a multi-MB message need not be parsed for them. */
function claimsOf(payloadB64: Buffer): { jti: string | undefined; message: string | undefined } {
  const head = Buffer.from(payloadB64.subarray(0, 2_048).toString('latin1'), 'base64url').toString('utf8');
  const m = /"jti":"([^"]+)"/.exec(head);
  const message = /"message_id":"([^"]+)"/.exec(head)?.[1];
  return m
    ? { jti: m[1], message }
    : {
        jti: (JSON.parse(Buffer.from(payloadB64.toString('latin1'), 'base64url').toString('utf8')) as { jti?: string })
          .jti,
        message,
      };
}

/**
 * The token's `jti` when its ES256 signature verifies against a key of the JWKS. Works on the raw
 * bytes (a compact JWS is ASCII): the signature covers everything before the second dot.
 */
async function verified(token: Buffer): Promise<{ jti: string | undefined; message: string | undefined } | undefined> {
  const first = token.indexOf(0x2e);
  const second = first < 0 ? -1 : token.indexOf(0x2e, first + 1);
  if (first <= 0 || second < 0 || token.indexOf(0x2e, second + 1) >= 0) return undefined;
  const header = JSON.parse(Buffer.from(token.subarray(0, first).toString('latin1'), 'base64url').toString('utf8')) as {
    alg?: string;
    kid?: string;
  };
  const key = header.alg === 'ES256' && header.kid ? await keyFor(header.kid) : undefined;
  const signature = Buffer.from(token.subarray(second + 1).toString('latin1'), 'base64url');
  if (!key || !verify('sha256', token.subarray(0, second), { key, dsaEncoding: 'ieee-p1363' }, signature))
    return undefined;
  return claimsOf(token.subarray(first + 1, second));
}

/**
 * The request body in one buffer. With a Content-Length (the dispatcher always sends one) the
 * chunks are copied into a buffer of that size as they arrive: the receiver shares the machine
 * with what it measures, so it spends no more than it must (no promise per chunk, no second copy).
 */
function readBody(req: IncomingMessage): Promise<Buffer> {
  const declared = Number(req.headers['content-length']);
  // HTTP/1.1 framing (node's parser) never delivers more than the Content-Length.
  const body = Number.isSafeInteger(declared) && declared > 0 ? Buffer.allocUnsafe(declared) : undefined;
  const chunks: Buffer[] = [];
  let size = 0;
  return new Promise((resolve, reject) => {
    req.on('data', (chunk: Buffer) => {
      if (body) chunk.copy(body, size);
      else chunks.push(chunk);
      size += chunk.length;
    });
    req.on('error', reject);
    req.on('end', () => resolve(body ? body.subarray(0, size) : Buffer.concat(chunks)));
  });
}

const server = createServer((req, res) => {
  const url = new URL(req.url ?? '/', 'http://receiver');
  if (req.method === 'DELETE' && url.pathname === '/stats') {
    stats.delete(url.searchParams.get('path') ?? '');
    res.writeHead(204).end();
    return;
  }
  if (req.method === 'GET' && url.pathname === '/received') {
    const s = stats.get(url.searchParams.get('path') ?? '');
    const list = [...(s?.byJti ?? new Map()).entries()].map(([jti, r]) => ({ jti, ...r }));
    res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(list));
    return;
  }
  if (req.method === 'GET' && url.pathname === '/stats') {
    const s = stats.get(url.searchParams.get('path') ?? '');
    res.writeHead(200, { 'content-type': 'application/json' }).end(
      JSON.stringify(
        s
          ? {
              received: s.received,
              distinct: s.jtis.size,
              invalid: s.invalid,
              bytes: s.bytes,
              firstAt: s.firstAt,
              lastAt: s.lastAt,
            }
          : { received: 0, distinct: 0, invalid: 0, bytes: 0 },
      ),
    );
    return;
  }
  void readBody(req).then(
    async (body) => {
      const s = stats.get(url.pathname) ?? {
        received: 0,
        invalid: 0,
        bytes: 0,
        jtis: new Set<string>(),
        byJti: new Map(),
        firstAt: Date.now(),
        lastAt: 0,
      };
      stats.set(url.pathname, s);
      const claims = await verified(body).catch(() => undefined);
      const jti = claims?.jti;
      s.received++;
      s.bytes += body.length;
      s.lastAt = Date.now();
      if (jti) {
        s.jtis.add(jti);
        const seen = s.byJti.get(jti);
        s.byJti.set(jti, { message: claims.message, times: (seen?.times ?? 0) + 1 });
      } else s.invalid++;
      res.writeHead(jti ? 200 : 401).end();
    },
    // A body cut short: the dispatcher sees the failure and retries.
    () => res.destroy(),
  );
});
server.keepAliveTimeout = 60_000;
// The socket the bench hands over (LISTEN_FD), else RECEIVER_PORT.
const fd = process.env.LISTEN_FD;
server.listen(fd ? { fd: Number(fd) } : { port: Number(process.env.RECEIVER_PORT), host: '127.0.0.1' }, () =>
  process.stderr.write(`receiver listening on ${(server.address() as AddressInfo).port}\n`),
);
process.on('SIGTERM', () => server.close(() => process.exit(0)));
