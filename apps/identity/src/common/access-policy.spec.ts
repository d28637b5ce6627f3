import { ApiError, ScopeCatalog, type Principal, type ScopeKey } from '@edu/domain';
import { AccessPolicy } from './access-policy';

const catalog = new ScopeCatalog({
  schemaBase: 'https://api.edu.example',
  onerosterBase: 'https://purl.imsglobal.org/spec/or/v1p1/scope',
});
const policy = new AccessPolicy(catalog);
const TENANT = '6f1c2a9e-3b4d-4e8a-9c11-2a7b5e0d4f01';

const base = (keys: ScopeKey[]) => ({ appId: 'app', clientId: 'c', tokenId: 't', scopes: new Set(catalog.uris(keys)) });
const tenant = (...keys: ScopeKey[]): Principal => ({ ...base(keys), kind: 'tenant', tenantId: TENANT.toUpperCase() });
const developer = (...keys: ScopeKey[]): Principal => ({ ...base(keys), kind: 'developer', developerId: 'D' });
const operator = (): Principal => ({ ...base(['platform.admin']), kind: 'operator' });

const code = (fn: () => unknown) => {
  try {
    fn();
    return 'ok';
  } catch (err) {
    return err instanceof ApiError ? `${err.status} ${err.code}` : String(err);
  }
};

describe('AccessPolicy', () => {
  it('tenant reads take readonly or write; writes only write; ids come back lower-case', () => {
    expect(policy.tenant(tenant('id.tenant-core.readonly'), 'read')).toBe(TENANT);
    expect(policy.tenant(tenant('id.tenant-core.write'), 'read')).toBe(TENANT);
    expect(code(() => policy.tenant(tenant('id.tenant-core.readonly'), 'write'))).toBe('403 insufficient_scope');
    expect(code(() => policy.tenant(tenant('roster-core.readonly'), 'read'))).toBe('403 insufficient_scope');
    expect(code(() => policy.tenant(developer('id.apps.write'), 'read'))).toBe('403 insufficient_scope');
  });

  it('a path tenant must be the token\u2019s own; anything else is 404', () => {
    const who = tenant('id.tenant-core.readonly');
    expect(policy.pathTenant(who, 'read', TENANT.toUpperCase())).toBe(TENANT);
    expect(code(() => policy.pathTenant(who, 'read', '9b8e7d6c-5a4f-4321-8fed-cba987654302'))).toBe('404 not_found');
    expect(code(() => policy.pathTenant(who, 'read', 'nope'))).toBe('404 not_found');
  });

  it('app owners: tenant-core.* in tenant context, apps.* in developer context, never crossed', () => {
    expect(policy.appOwner(tenant('id.tenant-core.readonly'), 'read')).toEqual({ type: 'tenant', id: TENANT });
    expect(policy.appOwner(developer('id.apps.readonly'), 'read')).toEqual({ type: 'developer', id: 'd' });
    expect(code(() => policy.appOwner(developer('id.apps.readonly'), 'write'))).toBe('403 insufficient_scope');
    expect(code(() => policy.appOwner(tenant('id.apps.write'), 'write'))).toBe('403 insufficient_scope');
    expect(code(() => policy.appOwner(operator(), 'read'))).toBe('403 insufficient_scope');
  });

  it('operator checks need the operator context and platform.admin', () => {
    expect(code(() => policy.operator(operator()))).toBe('ok');
    expect(code(() => policy.operator(tenant('platform.admin')))).toBe('403 insufficient_scope');
  });

  it('tenant routes the operator may use: own tenant for tenant tokens, any well-formed id for the operator', () => {
    const other = '9b8e7d6c-5a4f-4321-8fed-cba987654302';
    expect(policy.pathTenantOrOperator(tenant('id.tenant-core.write'), 'write', TENANT)).toEqual({
      by: 'tenant',
      tenantId: TENANT,
    });
    expect(code(() => policy.pathTenantOrOperator(tenant('id.tenant-core.write'), 'write', other))).toBe(
      '404 not_found',
    );
    expect(code(() => policy.pathTenantOrOperator(tenant('id.tenant-core.readonly'), 'write', TENANT))).toBe(
      '403 insufficient_scope',
    );
    expect(policy.pathTenantOrOperator(operator(), 'write', other.toUpperCase())).toEqual({
      by: 'operator',
      tenantId: other,
    });
    expect(code(() => policy.pathTenantOrOperator(operator(), 'read', 'nope'))).toBe('404 not_found');
    expect(code(() => policy.pathTenantOrOperator(developer('id.apps.write'), 'read', TENANT))).toBe(
      '403 insufficient_scope',
    );
    // platform.admin counts only in the operator's own token
    expect(code(() => policy.pathTenantOrOperator(tenant('platform.admin'), 'read', other))).toBe(
      '403 insufficient_scope',
    );
  });

  it('app routes the operator may use: every app for the operator, own apps otherwise', () => {
    expect(policy.apps(operator(), 'write')).toEqual({ by: 'operator' });
    expect(policy.apps(developer('id.apps.write'), 'write')).toEqual({
      by: 'owner',
      owner: { type: 'developer', id: 'd' },
    });
    expect(code(() => policy.apps(tenant('platform.admin'), 'write'))).toBe('403 insufficient_scope');
    expect(code(() => policy.apps({ ...operator(), scopes: new Set() }, 'read'))).toBe('403 insufficient_scope');
  });
});
