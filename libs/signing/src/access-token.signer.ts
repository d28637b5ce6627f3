import { randomUUID } from 'node:crypto';
import { SignJWT } from 'jose';
import type { SigningKeyStore } from './signing-key.store';

export interface AccessTokenClaims {
  sub: string;
  client_id: string;
  scope: string[];
  tenant_id?: string;
  developer_id?: string;
  deployment_id?: string;
  region?: string;
}

export interface SignedAccessToken {
  token: string;
  expiresIn: number;
  jti: string;
}

/** Issues RFC 9068 JWT access tokens (`typ: at+jwt`) with the active access-token key. */
export class AccessTokenSigner {
  constructor(
    private readonly keys: SigningKeyStore,
    private readonly issuer: string,
    private readonly audience: string,
    private readonly ttlSeconds: number,
  ) {}

  async sign(claims: AccessTokenClaims): Promise<SignedAccessToken> {
    const key = await this.keys.activeKey('access-token');
    const jti = randomUUID();
    const { scope, sub, ...rest } = claims;
    const token = await new SignJWT({ ...rest, scope: scope.join(' ') })
      .setProtectedHeader({ alg: key.alg, kid: key.kid, typ: 'at+jwt' })
      .setIssuer(this.issuer)
      .setAudience(this.audience)
      .setSubject(sub)
      .setIssuedAt()
      .setExpirationTime(`${this.ttlSeconds}s`)
      .setJti(jti)
      .sign(key.privateKey);
    return { token, expiresIn: this.ttlSeconds, jti };
  }
}
