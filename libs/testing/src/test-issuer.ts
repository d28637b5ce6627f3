import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createHmac, randomUUID } from 'node:crypto';
import { exportJWK, generateKeyPair, SignJWT, type CryptoKey, type JWK } from 'jose';

export interface MintOptions {
  scopes: string[];
  tenantId?: string;
  developerId?: string;
  deploymentId?: string;
  region?: string;
  sub?: string;
  clientId?: string;
  expiresInSeconds?: number;
  issuer?: string;
  audience?: string;
  kid?: string;
  typ?: string;
}

/**
 * A stand-in identity service for resource-server tests: its own ES256 key, a JWKS served over
 * real HTTP (so the apps' remote-JWKS path is exercised), and token minting, including the
 * malformed and forged tokens a resource server must refuse.
 */
export class TestIssuer {
  private server?: Server;
  private privateKey!: CryptoKey;
  private publicJwk!: JWK;
  readonly kid = `test-${randomUUID().slice(0, 8)}`;
  jwksUrl = '';

  constructor(
    readonly issuer = 'http://issuer.test',
    readonly audience = 'https://api.edu.example',
  ) {}

  async start(): Promise<this> {
    const { privateKey, publicKey } = await generateKeyPair('ES256', { extractable: true });
    this.privateKey = privateKey;
    this.publicJwk = { ...(await exportJWK(publicKey)), kid: this.kid, alg: 'ES256', use: 'sig' };
    this.server = createServer((req, res) => {
      if (req.url === '/.well-known/jwks.json') {
        res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ keys: [this.publicJwk] }));
      } else {
        res.writeHead(404).end();
      }
    });
    await new Promise<void>((resolve) => this.server!.listen(0, '127.0.0.1', resolve));
    this.jwksUrl = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}/.well-known/jwks.json`;
    return this;
  }

  async stop(): Promise<void> {
    await new Promise<void>((resolve) => (this.server ? this.server.close(() => resolve()) : resolve()));
  }

  get jwk(): JWK {
    return this.publicJwk;
  }

  async mint(o: MintOptions): Promise<string> {
    const claims: Record<string, unknown> = { client_id: o.clientId ?? 'client-test', scope: o.scopes.join(' ') };
    if (o.tenantId) claims.tenant_id = o.tenantId;
    if (o.developerId) claims.developer_id = o.developerId;
    if (o.deploymentId) claims.deployment_id = o.deploymentId;
    if (o.region) claims.region = o.region;
    const now = Math.floor(Date.now() / 1000);
    return new SignJWT(claims)
      .setProtectedHeader({ alg: 'ES256', kid: o.kid ?? this.kid, typ: o.typ ?? 'at+jwt' })
      .setIssuer(o.issuer ?? this.issuer)
      .setAudience(o.audience ?? this.audience)
      .setSubject(o.sub ?? randomUUID())
      .setIssuedAt(now - 10)
      .setExpirationTime(now + (o.expiresInSeconds ?? 300))
      .setJti(randomUUID())
      .sign(this.privateKey);
  }

  /** Tokens every resource server must answer with 401, each named by the attack it models. */
  async attackTokens(valid: MintOptions): Promise<Record<string, string>> {
    const good = await this.mint(valid);
    const [header, payload] = good.split('.');
    const decoded = JSON.parse(Buffer.from(payload, 'base64url').toString());
    const b64 = (v: unknown) => Buffer.from(JSON.stringify(v)).toString('base64url');

    const unsigned = `${b64({ alg: 'none', typ: 'at+jwt', kid: this.kid })}.${payload}.`;
    // HS256 "signed" with the public key bytes: the classic algorithm-confusion forgery.
    const hsHeader = b64({ alg: 'HS256', typ: 'at+jwt', kid: this.kid });
    const hsSig = createHmac('sha256', JSON.stringify(this.publicJwk))
      .update(`${hsHeader}.${payload}`)
      .digest('base64url');
    const tampered = `${header}.${b64({ ...decoded, scope: `${decoded.scope} extra`, tenant_id: randomUUID() })}.${good.split('.')[2]}`;

    return {
      'alg none': unsigned,
      'HS256 signed with the public key': `${hsHeader}.${payload}.${hsSig}`,
      expired: await this.mint({ ...valid, expiresInSeconds: -120 }),
      'wrong iss': await this.mint({ ...valid, issuer: 'https://evil.example' }),
      'wrong aud': await this.mint({ ...valid, audience: 'https://other-service.example' }),
      'tampered payload': tampered,
      'unknown kid': await this.mint({ ...valid, kid: 'no-such-key' }),
      'wrong typ': await this.mint({ ...valid, typ: 'JWT' }),
      'not a JWT': 'definitely-not-a-token',
    };
  }
}
