/**
 * A stand-in identity service for the benchmark: an ES256 key, its JWKS served over real HTTP,
 * and access tokens in the platform's format (RFC 9068, `typ: at+jwt`), so the service under
 * test verifies tokens exactly as in production.
 */
import { randomUUID } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { exportJWK, generateKeyPair, SignJWT, type CryptoKey, type JWK } from 'jose';

export class BenchIssuer {
  readonly issuer = 'http://bench-issuer.local';
  readonly audience = 'https://api.edu.example';
  readonly kid = `bench-${randomUUID().slice(0, 8)}`;
  jwksUrl = '';
  private server?: Server;
  private key!: CryptoKey;
  private jwk!: JWK;

  async start(): Promise<this> {
    const { privateKey, publicKey } = await generateKeyPair('ES256', { extractable: true });
    this.key = privateKey;
    this.jwk = { ...(await exportJWK(publicKey)), kid: this.kid, alg: 'ES256', use: 'sig' };
    const body = JSON.stringify({ keys: [this.jwk] });
    this.server = createServer((req, res) => {
      if (req.url === '/.well-known/jwks.json') res.writeHead(200, { 'content-type': 'application/json' }).end(body);
      else res.writeHead(404).end();
    });
    await new Promise<void>((resolve) => this.server!.listen(0, '127.0.0.1', resolve));
    this.jwksUrl = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}/.well-known/jwks.json`;
    return this;
  }

  mint(o: {
    scopes: string[];
    tenantId: string;
    deploymentId?: string;
    sub?: string;
    expiresInSeconds?: number;
  }): Promise<string> {
    const now = Math.floor(Date.now() / 1000);
    return new SignJWT({
      client_id: 'bench-client',
      scope: o.scopes.join(' '),
      tenant_id: o.tenantId,
      ...(o.deploymentId ? { deployment_id: o.deploymentId } : {}),
    })
      .setProtectedHeader({ alg: 'ES256', kid: this.kid, typ: 'at+jwt' })
      .setIssuer(this.issuer)
      .setAudience(this.audience)
      .setSubject(o.sub ?? randomUUID())
      .setIssuedAt(now)
      .setExpirationTime(now + (o.expiresInSeconds ?? 3600))
      .setJti(randomUUID())
      .sign(this.key);
  }

  stop(): Promise<void> {
    return new Promise((resolve) => (this.server ? this.server.close(() => resolve()) : resolve()));
  }
}
