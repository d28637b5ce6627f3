import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { guardedFetch, MAX_ANSWER_BYTES, upstreamTargetPolicy } from './guarded-fetch';

const get = (fetch: ReturnType<typeof guardedFetch>, url: string) =>
  fetch(url, { method: 'GET', headers: {}, body: undefined, redirect: 'manual' });

describe('requests to tenants’ identity providers (SSRF)', () => {
  const production = guardedFetch(upstreamTargetPolicy(true), async (host) =>
    host === 'idp.school.example' ? [{ address: '10.0.0.7', family: 4 }] : [{ address: '93.184.215.14', family: 4 }],
  );

  it.each([
    ['plain http', 'http://idp.example.com/.well-known/openid-configuration', /must use https/],
    ['a loopback address', 'https://127.0.0.1/.well-known/openid-configuration', /private or internal/],
    ['cloud metadata', 'https://169.254.169.254/latest/meta-data', /private or internal/],
    ['localhost', 'https://localhost/jwks', /public host name/],
    ['an odd port', 'https://idp.example.com:6379/token', /port must be one of/],
    ['credentials in the URL', 'https://user:pw@idp.example.com/token', /credentials/],
  ])('refuses %s in production before connecting', async (_name, url, reason) => {
    await expect(get(production, url)).rejects.toThrow(reason);
  });

  it('refuses a public name that resolves to a private address (checked at connect time)', async () => {
    const err = (await get(production, 'https://idp.school.example/jwks').catch((e: unknown) => e)) as Error & {
      cause?: { code?: string };
    };
    expect(err).toBeInstanceOf(Error);
    expect(JSON.stringify({ m: err.message, c: err.cause?.code })).toMatch(/E_BLOCKED_TARGET|not a public address/);
  });

  it('outside production lets local http providers through (as for the core providers)', () => {
    expect(upstreamTargetPolicy(false)).toMatchObject({ allowHttp: true, allowPrivate: true, allowedPorts: 'any' });
  });

  it('hands over small answers whole and refuses oversized ones (declared or streamed), never following redirects', async () => {
    const server = createServer((req, res) => {
      if (req.url === '/small') return res.writeHead(200, { 'content-type': 'application/json' }).end('{"keys":[]}');
      if (req.url === '/moved') return res.writeHead(302, { location: 'http://169.254.169.254/' }).end();
      res.writeHead(200, { 'content-type': 'application/json' });
      const chunk = Buffer.alloc(64 * 1024, 0x20);
      for (let sent = 0; sent <= MAX_ANSWER_BYTES; sent += chunk.length) res.write(chunk);
      res.end();
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const local = guardedFetch(upstreamTargetPolicy(false));
    try {
      const small = await get(local, `${base}/small`);
      expect(small.status).toBe(200);
      expect(await small.json()).toEqual({ keys: [] });
      const moved = await get(local, `${base}/moved`);
      expect(moved.status).toBe(302);
      await expect(get(local, `${base}/big`)).rejects.toThrow(/larger than/);
    } finally {
      server.close();
    }
  });
});
