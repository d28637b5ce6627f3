import type { ArgumentsHost } from '@nestjs/common';
import { ApiErrorCode, RetryLaterError } from '@edu/domain';
import { IdentityErrorFilter } from './identity-error.filter';

/** An Express response as far as the filters use it, recording what was sent. */
function answer(path: string, err: unknown) {
  const sent = { status: 0, headers: {} as Record<string, string>, body: undefined as unknown };
  const res = {
    headersSent: false,
    status(n: number) {
      sent.status = n;
      return res;
    },
    set(h: Record<string, string>) {
      Object.assign(sent.headers, Object.fromEntries(Object.entries(h).map(([k, v]) => [k.toLowerCase(), v])));
      return res;
    },
    send(body: string) {
      sent.body = body;
      return res;
    },
    json(body: unknown) {
      sent.headers['content-type'] ??= 'application/json';
      sent.body = body;
      return res;
    },
  };
  const host = {
    switchToHttp: () => ({ getRequest: () => ({ path, method: 'GET' }), getResponse: () => res }),
  } as unknown as ArgumentsHost;
  new IdentityErrorFilter().catch(err, host);
  return sent;
}

const shed = () => new RetryLaterError(ApiErrorCode.ServiceUnavailable, 'The service is overloaded; retry later', 2);

describe('IdentityErrorFilter', () => {
  it.each(['/oidc/auth', '/saml/t1/sso', '/signin/lti/p1/login', '/signin/interaction/u1', '/oidc/session/end'])(
    'a sign-in page shed as overloaded (%s) is the portal’s page with Retry-After, not JSON',
    (path) => {
      const sent = answer(path, shed());
      expect(sent.status).toBe(503);
      expect(sent.headers['content-type']).toMatch(/^text\/html/);
      expect(sent.headers['retry-after']).toBe('2');
      expect(sent.headers['cache-control']).toBe('no-store');
      expect(sent.body).toContain('Sign-in is busy right now. Wait 2 seconds and try again.');
      expect(sent.body).toContain('/signin/assets/portal.css');
    },
  );

  it('a rate-limited sign-in page says there were too many attempts', () => {
    const sent = answer('/oidc/auth', new RetryLaterError(ApiErrorCode.RateLimited, 'Too many requests', 7));
    expect(sent.status).toBe(429);
    expect(sent.headers['retry-after']).toBe('7');
    expect(sent.body).toContain('Too many sign-in attempts. Wait 7 seconds and try again.');
  });

  it.each(['/tenants', '/oidc/token', '/oidc/me', '/.well-known/jwks.json'])(
    'an API route (%s) keeps the JSON error with Retry-After',
    (path) => {
      const sent = answer(path, shed());
      expect(sent.status).toBe(503);
      expect(sent.headers['retry-after']).toBe('2');
      expect(sent.body).toEqual({ error: 'service_unavailable', message: 'The service is overloaded; retry later' });
    },
  );
});
