import type { Response } from 'supertest';
import request from 'supertest';
import { DEFAULT_ONEROSTER_V1P2_SCOPE_BASE } from '@edu/domain';
import { PUBLIC_BASE, type RosterHarness } from './harness';
import { expectV1p2, type V1p2Service } from './v1p2/oas-schemas';

/** Roots of the three OneRoster v1.2 services. */
export const V1P2 = {
  rostering: '/ims/oneroster/rostering/v1p2',
  gradebook: '/ims/oneroster/gradebook/v1p2',
  resources: '/ims/oneroster/resources/v1p2',
} as const;

/** Absolute roots hrefs are built on. */
export const V1P2_HREF = {
  rostering: `${PUBLIC_BASE}${V1P2.rostering}`,
  gradebook: `${PUBLIC_BASE}${V1P2.gradebook}`,
  resources: `${PUBLIC_BASE}${V1P2.resources}`,
} as const;

const s = (name: string) => `${DEFAULT_ONEROSTER_V1P2_SCOPE_BASE}/${name}`;

/** The thirteen v1.2 scope URIs (reference v1.2 §8). */
export const SCOPE_V1P2 = {
  rosterCore: s('roster-core.readonly'),
  roster: s('roster.readonly'),
  demographics: s('roster-demographics.readonly'),
  gradebookCore: s('gradebook-core.readonly'),
  gradebook: s('gradebook.readonly'),
  gradebookPut: s('gradebook.createput'),
  gradebookPost: s('gradebook.createpost'),
  gradebookDelete: s('gradebook.delete'),
  assessment: s('assessment.readonly'),
  assessmentPut: s('assessment.createput'),
  assessmentDelete: s('assessment.delete'),
  resourceCore: s('resource-core.readonly'),
  resource: s('resource.readonly'),
} as const;

export type V1p2Method = 'get' | 'put' | 'post' | 'delete';

/** A request to a v1.2 service of the harness's app (`path` relative to the service root). */
export function v1p2(
  h: RosterHarness,
  service: V1p2Service,
  method: V1p2Method,
  path: string,
  token?: string,
  body?: unknown,
): request.Test {
  const agent = request(h.app.getHttpServer());
  const url = `${V1P2[service]}/${path.replace(/^\/+/, '')}`;
  let r =
    method === 'get'
      ? agent.get(url)
      : method === 'put'
        ? agent.put(url)
        : method === 'post'
          ? agent.post(url)
          : agent.delete(url);
  if (token) r = r.set('Authorization', `Bearer ${token}`);
  if (body !== undefined) r = r.send(body as object);
  return r;
}

/**
 * Asserts a v1.2 error (reference v1.2 §7.2): the status, one bare `imsx_StatusInfo` (no
 * `statusInfoSet`) that validates against the service's schema, and its codeMinor.
 */
export function expectV1p2Error(
  res: Response,
  service: V1p2Service,
  status: number,
  codeMinor: string | undefined,
  fieldName?: string,
): void {
  const minor = res.body?.imsx_CodeMinor?.imsx_codeMinorField?.[0];
  if (res.status !== status || minor?.imsx_codeMinorFieldValue !== codeMinor) {
    throw new Error(
      `expected ${status} ${codeMinor ?? '(no codeMinor)'}, got ${res.status} ${JSON.stringify(res.body)}`,
    );
  }
  expect(res.headers['content-type']).toMatch(/^application\/json/);
  expectV1p2(service, 'imsx_StatusInfoDType', res.body);
  expect(res.body).toMatchObject({ imsx_severity: 'error' });
  expect(res.body.imsx_description.length).toBeGreaterThan(0);
  if (fieldName) expect(minor.imsx_codeMinorFieldName).toBe(fieldName);
  expect(JSON.stringify(res.body)).not.toMatch(/\bat .+\.(ts|js):\d+/);
  if (status === 401) expect(res.headers['www-authenticate']).toMatch(/^Bearer/);
}
