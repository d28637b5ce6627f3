import { AppEntity, DeploymentEntity } from '@edu/persistence';
import { generateClientId, generateClientSecret, hashClientSecret } from '@edu/signing';
import type { DataSource } from 'typeorm';

/** An oauth2 app owned by the tenant and deployed there with `scopes` (one bench client). */
export async function deployBenchApp(
  ds: DataSource,
  tenantId: string,
  name: string,
  scopes: string[],
): Promise<{ appId: string; deploymentId: string }> {
  const app = await ds.getRepository(AppEntity).save({
    name,
    ownerType: 'tenant',
    ownerId: tenantId,
    authType: 'oauth2',
    oauth2: { redirect_uris: ['https://bench.example/callback'] },
    saml: null,
    clientId: generateClientId('app'),
    clientSecretHash: hashClientSecret(generateClientSecret()),
  } as Partial<AppEntity>);
  const deployment = await ds
    .getRepository(DeploymentEntity)
    .save({ appId: app.id, tenantId, scope: scopes, clientId: null, clientSecretHash: null, settings: {} });
  return { appId: app.id, deploymentId: deployment.id };
}
