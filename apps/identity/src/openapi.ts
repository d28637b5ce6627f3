import type { INestApplication } from '@nestjs/common';
import { DocumentBuilder, SwaggerModule, type OpenAPIObject } from '@nestjs/swagger';
import { SCOPE_CATALOG } from '@edu/auth';
import { ALL_SCOPE_KEYS, type ScopeCatalog } from '@edu/domain';
import { documentedOperations, SCOPES_EXTENSION } from '@edu/http';

/**
 * Names each operation's accepted scopes (any one suffices) with the configured URIs: an OAuth 2.0
 * client-credentials security scheme lists every scope, and each protected operation accepts
 * `bearer` or `oauth2` with its scopes. The scopes are those its `@RequireScopes` declares, read
 * as the guard and the route inventory read them.
 */
export function addScopeSecurity(app: INestApplication, doc: OpenAPIObject, catalog: ScopeCatalog): OpenAPIObject {
  doc.components ??= {};
  doc.components.securitySchemes ??= {};
  doc.components.securitySchemes.oauth2 = {
    type: 'oauth2',
    description: 'Client credentials (RFC 6749 §4.4). A route accepts a token holding any one of its scopes.',
    flows: {
      clientCredentials: {
        tokenUrl: '/oauth/token',
        scopes: Object.fromEntries(ALL_SCOPE_KEYS.map((k) => [catalog.uri(k), k])),
      },
    },
  };
  for (const { operation, scopes } of documentedOperations(app, doc)) {
    if (!scopes) continue;
    const uris = catalog.uris(scopes);
    const op = operation as unknown as Record<string, unknown>;
    op[SCOPES_EXTENSION] = uris;
    operation.security = [...(operation.security ?? []).filter((s) => !('oauth2' in s)), { oauth2: uris }];
  }
  return doc;
}

export function buildOpenApiDocument(app: INestApplication): OpenAPIObject {
  const config = new DocumentBuilder()
    .setTitle('Identity API')
    .setDescription(
      'Tenants, users, apps, identity providers, deployments, constituencies, tenant-users, vanity domains; OAuth 2.0 token endpoint and global JWKS. ' +
        'Reads answer JSON arrays, also for one id. Errors are {"error", "message"}; validation errors add "fields". ' +
        'Unknown, malformed and other tenants\u2019 ids all answer 404 not_found. ' +
        'The operator (platform.admin) provisions tenants and developers, and the apps and deployments of any owner or tenant.',
    )
    .setVersion('1.0')
    .addBearerAuth({ type: 'http', scheme: 'bearer', bearerFormat: 'JWT' }, 'bearer')
    .build();
  return addScopeSecurity(app, SwaggerModule.createDocument(app, config), app.get<ScopeCatalog>(SCOPE_CATALOG));
}

/** OpenAPI document at /docs-json and the UI at /docs. Call before `app.init()` / `listen()`. */
export function setupOpenApi(app: INestApplication): void {
  SwaggerModule.setup('docs', app, () => buildOpenApiDocument(app), { jsonDocumentUrl: 'docs-json' });
}
