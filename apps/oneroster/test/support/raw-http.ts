import { request as httpRequest, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface RawAnswer {
  readonly status: number;
  readonly headers: Record<string, string | string[] | undefined>;
  readonly text: string;
  /** The body parsed as JSON, or undefined when it is empty or not JSON. */
  readonly body: unknown;
}

/** Makes sure the app's HTTP server listens on a local port; returns that port. */
export async function listening(server: Server): Promise<number> {
  if (!server.listening) await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  return (server.address() as AddressInfo).port;
}

/**
 * One HTTP request with the request target sent byte for byte as given (no URL normalisation,
 * so `filter=email='x@y.org'` reaches the server un-encoded, as Google's notebook sends it).
 */
export function rawRequest(
  port: number,
  method: string,
  target: string,
  o: { token?: string; body?: string; contentType?: string } = {},
): Promise<RawAnswer> {
  const headers: Record<string, string> = {};
  if (o.token) headers['Authorization'] = `Bearer ${o.token}`;
  if (o.body !== undefined) {
    headers['Content-Type'] = o.contentType ?? 'application/json';
    headers['Content-Length'] = String(Buffer.byteLength(o.body));
  }
  return new Promise((resolve, reject) => {
    const req = httpRequest({ host: '127.0.0.1', port, method, path: target, headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => {
        const text = Buffer.concat(chunks).toString('utf8');
        let body: unknown;
        try {
          body = text ? JSON.parse(text) : undefined;
        } catch {
          body = undefined;
        }
        resolve({ status: res.statusCode ?? 0, headers: res.headers, text, body });
      });
    });
    req.on('error', reject);
    if (o.body !== undefined) req.write(o.body);
    req.end();
  });
}
