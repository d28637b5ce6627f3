import { guardedFetch, upstreamTargetPolicy } from './guarded-fetch';

const get = (fetch: ReturnType<typeof guardedFetch>, url: string) => fetch(url, { method: 'GET', headers: {}, body: undefined, redirect: 'manual' });

describe('requests to tenants’ identity providers (SSRF)', () => {
  const production = guardedFetch(upstreamTargetPolicy(true), async (host) => (host === 'idp.school.example' ? [{ address: '10.0.0.7', family: 4 }] : [{ address: '93.184.215.14', family: 4 }]));

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
    const err = (await get(production, 'https://idp.school.example/jwks').catch((e: unknown) => e)) as Error & { cause?: { code?: string } };
    expect(err).toBeInstanceOf(Error);
    expect(JSON.stringify({ m: err.message, c: err.cause?.code })).toMatch(/E_BLOCKED_TARGET|not a public address/);
  });

  it('outside production lets local http providers through (as for the core providers)', () => {
    expect(upstreamTargetPolicy(false)).toMatchObject({ allowHttp: true, allowPrivate: true, allowedPorts: 'any' });
  });
});
