import type { INestApplication } from '@nestjs/common';
import { DocumentBuilder, SwaggerModule } from '@nestjs/swagger';

/** OpenAPI document at /docs-json and the UI at /docs, generated from the controllers and DTOs. */
export function setupOpenApi(app: INestApplication): void {
  const config = new DocumentBuilder()
    .setTitle('Identity API')
    .setDescription('Tenants, users, apps, identity providers, deployments, constituencies, tenant-users, vanity domains; OAuth 2.0 token endpoint and global JWKS.')
    .setVersion('1.0')
    .addBearerAuth({ type: 'http', scheme: 'bearer', bearerFormat: 'JWT' }, 'bearer')
    .build();
  SwaggerModule.setup('docs', app, () => SwaggerModule.createDocument(app, config), { jsonDocumentUrl: 'docs-json' });
}
