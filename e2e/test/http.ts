// HTTP calls the e2e specs make to the service processes.
import { request } from 'node:http';

/** A client-credentials token (HTTP Basic) from the identity process; fails the test unless it answers 200 with a token. */
export async function clientToken(
  identityUrl: string,
  client: { id: string; secret: string },
  form: Record<string, string> = {},
): Promise<string> {
  const res = await fetch(`${identityUrl}/oauth/token`, {
    method: 'POST',
    headers: {
      Authorization: `Basic ${Buffer.from(`${client.id}:${client.secret}`).toString('base64')}`,
      'Content-Type': 'application/x-www-form-urlencoded',
    },
    body: new URLSearchParams({ grant_type: 'client_credentials', ...form }),
  });
  const body = (await res.json()) as { access_token?: string };
  expect({ status: res.status, body }).toMatchObject({ status: 200, body: { access_token: expect.any(String) } });
  return body.access_token as string;
}

/** A JSON call with a bearer token: the status and the parsed body (undefined when empty). */
export async function jsonCall<T = ReturnType<typeof JSON.parse>>(
  method: string,
  url: string,
  bearer: string,
  body?: unknown,
): Promise<{ status: number; body: T }> {
  const res = await fetch(url, {
    method,
    headers: {
      Authorization: `Bearer ${bearer}`,
      ...(body === undefined ? {} : { 'Content-Type': 'application/json' }),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  return { status: res.status, body: (text ? JSON.parse(text) : undefined) as T };
}

/** A request's answer read in full. */
export interface RawAnswer {
  status: number;
  headers: Headers;
  text: string;
}

/**
 * A request sent with node:http. `written` resolves once all of it is handed to the kernel: to a
 * process that is stopped (SIGSTOP) it then waits in the socket's buffers, queued behind the
 * stall, whatever the load on this machine. `answer` resolves with the response.
 */
export function queuedRequest(
  url: string,
  init: { method?: string; headers?: Record<string, string>; body?: string } = {},
): { written: Promise<void>; answer: Promise<RawAnswer> } {
  let onWritten!: () => void;
  const written = new Promise<void>((resolve) => (onWritten = resolve));
  const answer = new Promise<RawAnswer>((resolve, reject) => {
    const req = request(url, { method: init.method ?? 'GET', headers: init.headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => {
        const headers = new Headers();
        for (const [name, value] of Object.entries(res.headers))
          if (value !== undefined) headers.set(name, Array.isArray(value) ? value.join(', ') : value);
        resolve({ status: res.statusCode ?? 0, headers, text: Buffer.concat(chunks).toString('utf8') });
      });
    });
    req.on('finish', onWritten);
    req.on('error', reject);
    req.end(init.body);
  });
  return { written, answer };
}
