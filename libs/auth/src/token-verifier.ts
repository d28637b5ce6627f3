import { errors as joseErrors, jwtVerify, type JWTPayload, type JWTVerifyGetKey } from 'jose';
import { ApiError, ApiErrorCode, type Principal } from '@edu/domain';
import { invalidToken } from './auth.errors';

/** The only signature algorithms accepted (no `none`, no HMAC). */
export const ACCEPTED_ALGORITHMS = ['ES256'];

export interface TokenVerifierOptions {
  keys: JWTVerifyGetKey;
  issuer: string;
  audience: string;
  /** Seconds of clock skew tolerated on `exp`/`nbf`/`iat`. */
  clockToleranceSeconds?: number;
}

/** Verifies RFC 9068 access tokens issued by the identity service and maps them to a Principal. */
export class TokenVerifier {
  constructor(private readonly options: TokenVerifierOptions) {}

  async verify(token: string): Promise<Principal> {
    let payload: JWTPayload;
    try {
      ({ payload } = await jwtVerify(token, this.options.keys, {
        algorithms: ACCEPTED_ALGORITHMS,
        issuer: this.options.issuer,
        audience: this.options.audience,
        typ: 'at+jwt',
        clockTolerance: this.options.clockToleranceSeconds ?? 5,
        requiredClaims: ['exp', 'iat', 'jti', 'sub', 'client_id', 'scope'],
      }));
    } catch (err) {
      // The keys could not be had (JWKS unreachable or slow, key store down): not the caller's
      // fault, so 503 rather than 401 (a client would drop a good token on a 401).
      if (err instanceof joseErrors.JWKSTimeout || !(err instanceof joseErrors.JOSEError)) {
        throw new ApiError(
          ApiErrorCode.ServiceUnavailable,
          'The keys that verify access tokens are unavailable; retry shortly',
        );
      }
      throw invalidToken(describeJoseError(err), true);
    }
    return toPrincipal(payload);
  }
}

function describeJoseError(err: unknown): string {
  if (err instanceof joseErrors.JWTExpired) return 'The access token has expired';
  if (err instanceof joseErrors.JWTClaimValidationFailed)
    return `The access token's "${err.claim}" claim is not acceptable`;
  if (err instanceof joseErrors.JWSSignatureVerificationFailed) return 'The access token signature is invalid';
  if (err instanceof joseErrors.JWKSNoMatchingKey) return 'The access token was signed with an unknown key';
  if (err instanceof joseErrors.JOSEAlgNotAllowed)
    return 'The access token uses a signature algorithm that is not accepted';
  return 'The access token could not be verified';
}

function stringClaim(payload: JWTPayload, name: string): string | undefined {
  const value = payload[name];
  return typeof value === 'string' && value.length > 0 ? value : undefined;
}

export function toPrincipal(payload: JWTPayload): Principal {
  const scope = stringClaim(payload, 'scope');
  const base = {
    appId: payload.sub as string,
    clientId: stringClaim(payload, 'client_id') as string,
    scopes: new Set(scope ? scope.split(' ').filter(Boolean) : []),
    tokenId: payload.jti as string,
  };
  const tenantId = stringClaim(payload, 'tenant_id');
  const developerId = stringClaim(payload, 'developer_id');
  if (tenantId && !developerId) {
    return {
      ...base,
      kind: 'tenant',
      tenantId,
      deploymentId: stringClaim(payload, 'deployment_id'),
      region: stringClaim(payload, 'region'),
    };
  }
  if (developerId && !tenantId) return { ...base, kind: 'developer', developerId };
  if (!tenantId && !developerId && payload.sub === 'operator') return { ...base, kind: 'operator' };
  throw invalidToken('The access token has no usable tenant or developer context', true);
}
