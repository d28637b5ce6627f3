import { request } from 'node:http';

export interface FormAnswer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: Record<string, unknown>;
}

/** HTTP Basic client authentication, the id and secret form-encoded first (RFC 6749 §2.3.1). */
export const basicAuth = (id: string, secret: string) =>
  `Basic ${Buffer.from(`${encodeURIComponent(id)}:${encodeURIComponent(secret)}`).toString('base64')}`;

/**
 * POSTs a form from `localAddress`, a loopback address of this machine (Linux answers all of
 * 127.0.0.0/8 on `lo`): the server sees that address as the connection's peer, as it would see
 * two clients on two hosts.
 */
export function postFormFrom(
  localAddress: string,
  url: string,
  form: Record<string, string>,
  headers: Record<string, string> = {},
): Promise<FormAnswer> {
  const body = new URLSearchParams(form).toString();
  return new Promise((resolve, reject) => {
    const req = request(
      url,
      {
        method: 'POST',
        localAddress,
        agent: false,
        headers: {
          'Content-Type': 'application/x-www-form-urlencoded',
          'Content-Length': Buffer.byteLength(body),
          Accept: 'application/json',
          ...headers,
        },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('error', reject);
        res.on('end', () => {
          const text = Buffer.concat(chunks).toString('utf8');
          resolve({ status: res.statusCode ?? 0, headers: res.headers, body: text ? JSON.parse(text) : {} });
        });
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}
