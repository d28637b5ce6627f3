// HTTP calls the e2e specs make to the service processes.

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
