import { isUuid } from '@edu/domain';
import { OAuthError } from '@edu/http';

export interface ClientCredentials {
  clientId: string;
  clientSecret: string;
  viaBasic: boolean;
}

export interface TokenRequest {
  credentials: ClientCredentials;
  /** Requested scope URIs; undefined = "everything the client may have". */
  scopes?: string[];
  tenantId?: string;
}

/** A form parameter: absent or empty = undefined (RFC 6749 §3.2); repeated = invalid_request. */
function param(body: Record<string, unknown>, name: string): string | undefined {
  const value = body[name];
  if (value === undefined || value === '') return undefined;
  if (typeof value !== 'string') throw new OAuthError('invalid_request', `Parameter "${name}" must appear once`);
  return value;
}

function basicCredentials(header: string): ClientCredentials {
  const encoded = /^Basic\s+([A-Za-z0-9+/=]+)\s*$/i.exec(header)?.[1];
  const decoded = encoded ? Buffer.from(encoded, 'base64').toString('utf8') : '';
  const colon = decoded.indexOf(':');
  if (colon < 1) throw new OAuthError('invalid_client', 'Malformed HTTP Basic client authentication', true);
  try {
    // RFC 6749 §2.3.1: id and secret are form-urlencoded before Basic encoding.
    const decode = (s: string) => decodeURIComponent(s.replace(/\+/g, ' '));
    return {
      clientId: decode(decoded.slice(0, colon)),
      clientSecret: decode(decoded.slice(colon + 1)),
      viaBasic: true,
    };
  } catch {
    throw new OAuthError('invalid_client', 'Malformed HTTP Basic client authentication', true);
  }
}

/** Parses and checks a client-credentials token request (RFC 6749 §4.4). */
export function parseTokenRequest(
  contentType: string | undefined,
  authorization: string | undefined,
  body: unknown,
): TokenRequest {
  if (!contentType || !/^application\/x-www-form-urlencoded\b/i.test(contentType)) {
    throw new OAuthError('invalid_request', 'The token request must be application/x-www-form-urlencoded');
  }
  const form = (body ?? {}) as Record<string, unknown>;
  const grantType = param(form, 'grant_type');
  if (!grantType) throw new OAuthError('invalid_request', 'Missing "grant_type"');
  if (grantType !== 'client_credentials')
    throw new OAuthError('unsupported_grant_type', 'Only grant_type=client_credentials is supported');

  const formId = param(form, 'client_id');
  const formSecret = param(form, 'client_secret');
  let credentials: ClientCredentials;
  if (authorization) {
    if (formSecret) throw new OAuthError('invalid_request', 'Use one client authentication method, not both');
    credentials = basicCredentials(authorization);
    if (formId && formId !== credentials.clientId)
      throw new OAuthError('invalid_request', 'client_id does not match the authenticated client');
  } else {
    if (!formId || !formSecret)
      throw new OAuthError(
        'invalid_client',
        'Client authentication is required (HTTP Basic or client_id and client_secret)',
      );
    credentials = { clientId: formId, clientSecret: formSecret, viaBasic: false };
  }

  const scope = param(form, 'scope');
  const scopes = scope === undefined ? undefined : scope.split(' ').filter(Boolean);
  if (scopes && scopes.length === 0) throw new OAuthError('invalid_scope', 'The scope parameter is empty');

  const tenantId = param(form, 'tenant_id');
  if (tenantId !== undefined && !isUuid(tenantId))
    throw new OAuthError('invalid_request', '"tenant_id" must be a UUID');
  return { credentials, scopes, tenantId: tenantId?.toLowerCase() };
}
