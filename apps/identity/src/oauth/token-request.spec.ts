import { OAuthError } from '@edu/http';
import { parseTokenRequest } from './token-request';

const FORM = 'application/x-www-form-urlencoded';
const basic = (raw: string) => `Basic ${Buffer.from(raw).toString('base64')}`;

function errorOf(fn: () => unknown): OAuthError {
  try {
    fn();
  } catch (err) {
    if (err instanceof OAuthError) return err;
    throw err;
  }
  throw new Error('expected an OAuthError');
}

describe('parseTokenRequest (RFC 6749 §4.4)', () => {
  it('reads Basic credentials, form-decoding id and secret (§2.3.1)', () => {
    const req = parseTokenRequest(`${FORM}; charset=utf-8`, basic('app%3A1:s%2Bcr%3At'), {
      grant_type: 'client_credentials',
    });
    expect(req.credentials).toEqual({ clientId: 'app:1', clientSecret: 's+cr:t', viaBasic: true });
    expect(req.scopes).toBeUndefined();
  });

  it('splits scope on spaces and lower-cases tenant_id', () => {
    const req = parseTokenRequest(FORM, undefined, {
      grant_type: 'client_credentials',
      client_id: 'a',
      client_secret: 'b',
      scope: 'x  y',
      tenant_id: 'AAAAAAAA-BBBB-4CCC-8DDD-EEEEEEEEEEEE',
    });
    expect(req.scopes).toEqual(['x', 'y']);
    expect(req.tenantId).toBe('aaaaaaaa-bbbb-4ccc-8ddd-eeeeeeeeeeee');
  });

  it('treats empty parameters as absent (§3.2)', () => {
    const req = parseTokenRequest(FORM, basic('a:b'), { grant_type: 'client_credentials', scope: '', tenant_id: '' });
    expect(req.scopes).toBeUndefined();
    expect(req.tenantId).toBeUndefined();
  });

  it.each([
    ['a JSON body', 'application/json', basic('a:b'), { grant_type: 'client_credentials' }, 'invalid_request'],
    ['no content type', undefined, basic('a:b'), { grant_type: 'client_credentials' }, 'invalid_request'],
    [
      'a repeated parameter',
      FORM,
      basic('a:b'),
      { grant_type: ['client_credentials', 'client_credentials'] },
      'invalid_request',
    ],
    ['another grant type', FORM, basic('a:b'), { grant_type: 'authorization_code' }, 'unsupported_grant_type'],
    [
      'two authentication methods',
      FORM,
      basic('a:b'),
      { grant_type: 'client_credentials', client_secret: 'b' },
      'invalid_request',
    ],
    [
      'a client_id that disagrees with Basic',
      FORM,
      basic('a:b'),
      { grant_type: 'client_credentials', client_id: 'z' },
      'invalid_request',
    ],
    ['Basic without a colon', FORM, basic('ab'), { grant_type: 'client_credentials' }, 'invalid_client'],
    ['Basic with bad percent-encoding', FORM, basic('%zz:b'), { grant_type: 'client_credentials' }, 'invalid_client'],
    [
      'no authentication at all',
      FORM,
      undefined,
      { grant_type: 'client_credentials', client_id: 'a' },
      'invalid_client',
    ],
    ['a scope of only spaces', FORM, basic('a:b'), { grant_type: 'client_credentials', scope: '   ' }, 'invalid_scope'],
    [
      'a tenant_id that is not a UUID',
      FORM,
      basic('a:b'),
      { grant_type: 'client_credentials', tenant_id: "1' OR '1'='1" },
      'invalid_request',
    ],
  ])('refuses %s', (_name, contentType, auth, body, code) => {
    expect(errorOf(() => parseTokenRequest(contentType, auth, body)).code).toBe(code);
  });

  it('answers invalid_client with 401 and a Basic challenge only after Basic', () => {
    const viaBasic = errorOf(() => parseTokenRequest(FORM, basic('ab'), { grant_type: 'client_credentials' }));
    expect(viaBasic.status).toBe(401);
    expect(viaBasic.basicChallenge).toBe(true);
    expect(errorOf(() => parseTokenRequest(FORM, undefined, { grant_type: 'client_credentials' })).basicChallenge).toBe(
      false,
    );
  });
});
