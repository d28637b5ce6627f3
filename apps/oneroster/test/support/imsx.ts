import type { Response } from 'supertest';

/** Asserts the OneRoster imsx error payload (reference §8): status, envelope and codeMinor. */
export function expectImsxError(res: Response, status: number, codeMinor: string, fieldName?: string): void {
  const entry = res.body?.statusInfoSet?.[0];
  const minor = entry?.imsx_CodeMinor?.imsx_codeMinorField?.[0];
  if (res.status !== status || minor?.imsx_codeMinorFieldValue !== codeMinor) {
    throw new Error(`expected ${status} ${codeMinor}, got ${res.status} ${JSON.stringify(res.body)}`);
  }
  expect(res.headers['content-type']).toMatch(/^application\/json/);
  expect(Object.keys(res.body)).toEqual(['statusInfoSet']);
  expect(res.body.statusInfoSet).toHaveLength(1);
  expect(entry).toMatchObject({ imsx_codeMajor: 'failure', imsx_severity: 'error' });
  expect(typeof entry.imsx_description).toBe('string');
  expect(entry.imsx_description.length).toBeGreaterThan(0);
  expect(typeof entry.imsx_messageRefIdentifier).toBe('string');
  if (fieldName) expect(minor.imsx_codeMinorFieldName).toBe(fieldName);
  expect(JSON.stringify(res.body)).not.toMatch(/\bat .+\.(ts|js):\d+/);
  if (status === 401) expect(res.headers['www-authenticate']).toMatch(/^Bearer/);
}

/** Asserts a 200 carrying one imsx warning with this codeMinor beside the data. */
export function expectImsxWarning(body: Record<string, unknown>, codeMinor: string, fieldName?: string): void {
  const set = body.statusInfoSet as Array<Record<string, unknown>> | undefined;
  expect(set).toBeDefined();
  const found = (set ?? []).find(
    (s) =>
      (
        s.imsx_CodeMinor as {
          imsx_codeMinorField: Array<{ imsx_codeMinorFieldValue: string; imsx_codeMinorFieldName: string }>;
        }
      ).imsx_codeMinorField[0]?.imsx_codeMinorFieldValue === codeMinor,
  );
  expect(found).toMatchObject({ imsx_codeMajor: 'success', imsx_severity: 'warning' });
  if (fieldName) expect(JSON.stringify(found)).toContain(`"imsx_codeMinorFieldName":"${fieldName}"`);
}

/** Parses a `Link` header into rel → URL. */
export function parseLinks(header: string | undefined): Record<string, URL> {
  const links: Record<string, URL> = {};
  for (const part of (header ?? '').split(/,\s*(?=<)/)) {
    const m = /^<([^>]+)>;\s*rel="([a-z]+)"$/.exec(part.trim());
    if (m) links[m[2] as string] = new URL(m[1] as string);
  }
  return links;
}
