import type { Response } from 'supertest';

/** Asserts the JSON error shape of design §7 (identity and alerts APIs). */
export function expectError(res: Response, status: number, code: string): void {
  if (res.status !== status || res.body?.error !== code) {
    throw new Error(`expected ${status} ${code}, got ${res.status} ${JSON.stringify(res.body)}`);
  }
  expect(typeof res.body.message).toBe('string');
  expect(JSON.stringify(res.body)).not.toMatch(/\bat .+\.(ts|js):\d+/); // never a stack trace
  if (status === 401) expect(res.headers['www-authenticate']).toMatch(/^Bearer/);
}
