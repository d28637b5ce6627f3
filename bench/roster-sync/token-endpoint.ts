/** A client-credentials token endpoint for the benchmark's SIS reader (tokens of the bench issuer). */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { BenchIssuer } from '../oneroster/issuer';

export async function startTokenEndpoint(
  issuer: BenchIssuer,
  o: { tenantId: string; appId: string; deploymentId: string; scopes: string[] },
): Promise<{ url: string; stop: () => Promise<void> }> {
  const server = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      void issuer
        .mint({
          scopes: o.scopes,
          tenantId: o.tenantId,
          deploymentId: o.deploymentId,
          sub: o.appId,
          expiresInSeconds: 3600,
        })
        .then((token) =>
          res
            .writeHead(200, { 'content-type': 'application/json' })
            .end(JSON.stringify({ access_token: token, token_type: 'Bearer', expires_in: 3600 })),
        );
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/oauth/token`,
    stop: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
