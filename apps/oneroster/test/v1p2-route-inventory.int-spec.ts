import { routeInventory } from '@edu/testing';
import { RosterHarness } from './support/harness';
import { V1P2 } from './support/v1p2';
import { V1P2_OPERATIONS, V1P2_SERVICES } from './support/v1p2/oas-schemas';

/** `/classes/{classSourcedId}/students` and `/classes/:class_id/students` → `/classes/{}/students`. */
const shape = (path: string) => path.replace(/\{[^}]+\}|:[A-Za-z_]+/g, '{}');

/**
 * The OneRoster 1.2 routes against the official OpenAPI files (their operations, checked in as
 * `support/v1p2/oas-derived.json`): every one of the 81 operations is served under its service
 * root with exactly the scopes the OAS lists, and nothing else is. A diff here is a permission
 * change or a missing operation.
 */
describe('OneRoster 1.2 route inventory', () => {
  const h = new RosterHarness();
  beforeAll(() => h.start());
  afterAll(() => h.stop());

  const served = () =>
    routeInventory(h.app).flatMap((r) => {
      const service = V1P2_SERVICES.find((s) => r.path === V1P2[s] || r.path.startsWith(`${V1P2[s]}/`));
      if (!service || r.method === 'ALL') return [];
      const scopes = r.access
        .split(' ')
        .map((k) => k.replace(/^v1p2\./, ''))
        .sort();
      return [`${service} ${r.method} ${shape(r.path.slice(V1P2[service].length))} ${scopes.join(' ')}`];
    });

  it('serves every operation of the three official documents with exactly their scopes', () => {
    const expected = V1P2_OPERATIONS.map(
      (o) => `${o.service} ${o.method} ${shape(o.path)} ${[...o.scopes].sort().join(' ')}`,
    );
    expect(expected).toHaveLength(81);
    expect(served().sort()).toEqual(expected.sort());
  });

  it('accepts only v1.2 scopes on v1.2 routes, and only v1.1 scopes on v1.1 routes', () => {
    for (const r of routeInventory(h.app)) {
      if (r.access === 'public' || r.path.startsWith('/admin') || r.path.startsWith('/health') || r.path === '/metrics')
        continue;
      const v1p2 = r.path.includes('/v1p2');
      for (const key of r.access.split(' '))
        expect({ route: `${r.method} ${r.path}`, v1p2: key.startsWith('v1p2.') }).toEqual({
          route: `${r.method} ${r.path}`,
          v1p2,
        });
    }
  });

  it('answers everything else under the v1.2 roots with the catch-all (404 / 405)', () => {
    const catchAlls = routeInventory(h.app).filter((r) => r.method === 'ALL' && r.path.includes('/v1p2'));
    expect(catchAlls.map((r) => `${r.path} ${r.access}`).sort()).toEqual(
      V1P2_SERVICES.flatMap((s) => [`${V1P2[s]} public`, `${V1P2[s]}/*path public`]).sort(),
    );
  });
});
