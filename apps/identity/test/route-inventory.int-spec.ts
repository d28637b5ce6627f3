import { routeInventory, type RouteEntry } from '@edu/testing';
import type { ScopeKey } from '@edu/domain';
import { IdentityHarness, uri } from './support/harness';

const inventory = (h: IdentityHarness): RouteEntry[] => routeInventory(h.app);

const READ = 'id.tenant-core.readonly id.tenant-core.write';
const WRITE = 'id.tenant-core.write';
/** Routes the operator also uses on any tenant or app, so a new school can be onboarded over HTTP. */
const READ_OR_OPERATOR = `${READ} platform.admin`;
const WRITE_OR_OPERATOR = `${WRITE} platform.admin`;
const APPS_READ = 'id.tenant-core.readonly id.tenant-core.write id.apps.readonly id.apps.write platform.admin';
const APPS_WRITE = 'id.tenant-core.write id.apps.write platform.admin';

/** The reviewed permission list: a diff here is a permission change. */
const EXPECTED = `
GET    /.well-known/jwks.json                           public
GET    /.well-known/openid-configuration                public
GET    /apps                                            ${APPS_READ}
POST   /apps                                            ${APPS_WRITE}
DELETE /apps/:id                                        ${APPS_WRITE}
GET    /apps/:id                                        ${APPS_READ}
PATCH  /apps/:id                                        ${APPS_WRITE}
POST   /apps/:id/secret                                 ${APPS_WRITE}
GET    /developers                                      platform.admin
POST   /developers                                      platform.admin
GET    /developers/:id                                  platform.admin
PATCH  /developers/:id                                  platform.admin
GET    /health/live                                     public
GET    /health/ready                                    public
GET    /identity-providers                              ${READ}
POST   /identity-providers                              ${WRITE}
DELETE /identity-providers/:id                          ${WRITE}
GET    /identity-providers/:id                          ${READ}
PATCH  /identity-providers/:id                          ${WRITE}
GET    /metrics                                         public
POST   /oauth/token                                     public
GET    /oidc/auth                                       public
POST   /oidc/auth                                       public
GET    /oidc/auth/:uid                                  public
GET    /oidc/me                                         public
POST   /oidc/me                                         public
GET    /oidc/session/end                                public
POST   /oidc/session/end                                public
POST   /oidc/session/end/confirm                        public
GET    /oidc/session/end/success                        public
POST   /oidc/token                                      public
POST   /oidc/token/introspection                        public
POST   /oidc/token/revocation                           public
GET    /saml/:tenant_id/apps/:app_id/start              public
GET    /saml/:tenant_id/metadata                        public
GET    /saml/:tenant_id/slo                             public
POST   /saml/:tenant_id/slo                             public
GET    /saml/:tenant_id/sso                             public
POST   /saml/:tenant_id/sso                             public
GET    /saml/complete                                   public
GET    /signin/apps                                     public
GET    /signin/assets/portal.css                        public
GET    /signin/brand/:domain/background                 public
GET    /signin/brand/:domain/brand.css                  public
GET    /signin/brand/:domain/fonts/:family/:index       public
GET    /signin/brand/:domain/logo/:scheme               public
GET    /signin/callback                                 public
GET    /signin/interaction/:uid                         public
POST   /signin/interaction/:uid/abort                   public
POST   /signin/interaction/:uid/start                   public
GET    /signin/interaction/:uid/upstream                public
POST   /signin/lti/:provider_id/launch                  public
GET    /signin/lti/:provider_id/login                   public
POST   /signin/lti/:provider_id/login                   public
GET    /signin/providers/:id/button.svg                 public
GET    /signin/schools/:tenant_id/apps                  public
GET    /tenants                                         ${READ} platform.admin
POST   /tenants                                         platform.admin
DELETE /tenants/:id                                     platform.admin
GET    /tenants/:id                                     ${READ} platform.admin
PATCH  /tenants/:id                                     platform.admin
GET    /tenants/:id/constituencies                      ${READ}
POST   /tenants/:id/constituencies                      ${WRITE}
DELETE /tenants/:id/constituencies/:constituency_id     ${WRITE}
PATCH  /tenants/:id/constituencies/:constituency_id     ${WRITE}
GET    /tenants/:id/sign-ins                            ${READ}
GET    /tenants/:id/users                               ${READ}
POST   /tenants/:id/users                               ${WRITE}
DELETE /tenants/:id/users/:email                        ${WRITE}
PATCH  /tenants/:id/users/:email                        ${WRITE}
GET    /tenants/:tenant_id/apps                         ${READ_OR_OPERATOR}
POST   /tenants/:tenant_id/apps                         ${WRITE_OR_OPERATOR}
DELETE /tenants/:tenant_id/apps/:app_id                 ${WRITE_OR_OPERATOR}
GET    /tenants/:tenant_id/apps/:app_id                 ${READ_OR_OPERATOR}
PATCH  /tenants/:tenant_id/apps/:app_id                 ${WRITE_OR_OPERATOR}
POST   /tenants/:tenant_id/apps/:app_id/secret          ${WRITE_OR_OPERATOR}
GET    /tenants/:tenant_id/apps/:app_id/sharing         ${WRITE_OR_OPERATOR}
PUT    /tenants/:tenant_id/apps/:app_id/sharing         ${WRITE_OR_OPERATOR}
POST   /tenants/:tenant_id/apps/:app_id/sharing/activate ${WRITE_OR_OPERATOR}
GET    /tenants/:tenant_id/apps/:app_id/sharing/preview ${WRITE_OR_OPERATOR}
GET    /tenants/:tenant_id/audit-events                 ${READ_OR_OPERATOR}
GET    /users                                           ${READ}
POST   /users                                           ${WRITE}
DELETE /users/:email                                    ${WRITE}
GET    /users/:email                                    ${READ}
PATCH  /users/:email                                    ${WRITE}
GET    /vanity-domains                                  ${READ}
POST   /vanity-domains                                  ${WRITE}
DELETE /vanity-domains/:domain                          ${WRITE}
GET    /vanity-domains/:domain                          ${READ}
PATCH  /vanity-domains/:domain                          ${WRITE}
`
  .trim()
  .split('\n')
  .map((line) => {
    const [method, path, ...access] = line.trim().split(/\s+/);
    return { method, path, access: access.join(' ') };
  });

describe('identity route inventory and OpenAPI document', () => {
  let h: IdentityHarness;

  beforeAll(async () => {
    h = await IdentityHarness.start();
  });

  afterAll(async () => {
    await h?.stop();
  });

  it('every route declares @Public() or its scopes', () => {
    const undeclared = inventory(h).filter((r) => r.access === 'NONE');
    expect(undeclared).toEqual([]);
  });

  it('matches the reviewed permission list', () => {
    const sortKey = (r: RouteEntry) => `${r.path} ${r.method}`;
    expect(inventory(h).map(sortKey)).toEqual(EXPECTED.map(sortKey).sort((a, b) => a.localeCompare(b)));
    expect(inventory(h)).toEqual(
      [...EXPECTED].sort((a, b) => a.path.localeCompare(b.path) || a.method.localeCompare(b.method)),
    );
  });

  it('no express route escapes the inventory (besides the OpenAPI pages)', () => {
    const express = h.app.getHttpAdapter().getInstance() as {
      router?: { stack: { route?: { path: string; methods: Record<string, boolean> } }[] };
    };
    const known = new Set(inventory(h).map((r) => `${r.method} ${r.path}`));
    const registered = (express.router?.stack ?? [])
      .filter((l) => l.route)
      .flatMap((l) => Object.keys(l.route!.methods).map((m) => `${m.toUpperCase()} ${l.route!.path}`))
      // Catch-all layers are Nest's middleware and not-found handlers, not routes.
      .filter((r) => !r.includes('/docs') && !r.includes('*splat'));
    expect(registered.length).toBeGreaterThan(0);
    expect(registered.filter((r) => !known.has(r))).toEqual([]);
  });

  it('serves /docs-json with every protected operation\u2019s scopes and the request/response schemas', async () => {
    const res = await h.http().get('/docs-json').expect(200);
    const doc = res.body;
    expect(doc.openapi).toMatch(/^3\./);
    expect(doc.components.securitySchemes).toMatchObject({
      bearer: { type: 'http', scheme: 'bearer' },
      oauth2: { type: 'oauth2' },
    });
    for (const r of EXPECTED) {
      const openApiPath = r.path.replace(/:([a-z_]+)/g, '{$1}');
      const op = doc.paths[openApiPath]?.[r.method.toLowerCase()];
      if (['/health/live', '/health/ready', '/metrics'].includes(r.path)) {
        expect(op).toBeUndefined();
        continue;
      }
      expect({ route: `${r.method} ${r.path}`, found: !!op }).toEqual({ route: `${r.method} ${r.path}`, found: true });
      if (r.access === 'public') continue;
      const uris = r.access.split(' ').map((k) => uri(k as ScopeKey));
      expect(op['x-required-scopes']).toEqual(uris);
      expect(op.security).toEqual(expect.arrayContaining([{ bearer: [] }, { oauth2: uris }]));
    }
    for (const schema of [
      'AppView',
      'CreateAppRequestDto',
      'AppOwnerDto',
      'DeveloperView',
      'CreateDeveloperDto',
      'DeploymentSettingsDto',
      'TenantView',
      'DeploymentView',
      'ConstituencyView',
      'TenantUserView',
      'UserView',
      'VanityDomainView',
      'BrandConfigurationDto',
      'CoreIdentityProviderView',
      'TenantIdentityProviderView',
      'SignInEventView',
    ]) {
      expect(doc.components.schemas).toHaveProperty(schema);
    }
    // A tenant provider's client secret is accepted, never returned.
    expect(doc.components.schemas.IdpOAuth2Dto.properties.client_secret).toMatchObject({
      type: 'string',
      writeOnly: true,
    });
    const ui = await h.http().get('/docs/').redirects(1);
    expect(ui.status).toBe(200);
    expect(ui.text).toContain('swagger');
  });
});
