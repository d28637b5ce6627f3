import { ScopeCatalog } from '@edu/domain';
import { scopeGrantProblem } from './grantable-scopes';

const catalog = new ScopeCatalog({
  schemaBase: 'https://api.edu.example',
  onerosterBase: 'https://purl.imsglobal.org/spec/or/v1p1/scope',
});
const ALERTS = catalog.uri('alerts.webhooks.write');
const ROSTER = catalog.uri('roster.readonly');
const ADMIN = catalog.uri('platform.admin');
const DEV = catalog.uri('id.apps.write');

describe('scopeGrantProblem', () => {
  it('a tenant grants roster and tenant-core scopes, never alerts, developer or operator scopes', () => {
    expect(scopeGrantProblem(catalog, 'tenant', ROSTER, [])).toBeUndefined();
    expect(scopeGrantProblem(catalog, 'tenant', ALERTS, [])).toMatch(/only by the operator/);
    expect(scopeGrantProblem(catalog, 'tenant', DEV, [])).toMatch(/not a scope a tenant can grant/);
    expect(scopeGrantProblem(catalog, 'tenant', ADMIN, [])).toMatch(/never granted/);
  });

  it('a tenant may keep an alerts scope the operator granted', () => {
    expect(scopeGrantProblem(catalog, 'tenant', ALERTS, [ALERTS])).toBeUndefined();
  });

  it('the operator also grants alerts scopes, but never platform.admin or developer scopes', () => {
    expect(scopeGrantProblem(catalog, 'operator', ALERTS, [])).toBeUndefined();
    expect(scopeGrantProblem(catalog, 'operator', ADMIN, [])).toMatch(/never granted/);
    expect(scopeGrantProblem(catalog, 'operator', ADMIN, [ADMIN])).toMatch(/never granted/);
    expect(scopeGrantProblem(catalog, 'operator', DEV, [])).toMatch(/not a scope a deployment can hold/);
  });

  it('unknown URIs, including near misses, are refused for everyone', () => {
    for (const s of ['https://evil.example/scope', `${ROSTER}/`, ROSTER.toUpperCase(), '']) {
      expect(scopeGrantProblem(catalog, 'operator', s, [s])).toBe('is not a known scope URI');
    }
  });
});
