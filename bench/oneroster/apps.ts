import { AppEntity, DeploymentEntity, TenantEntity } from '@edu/persistence';
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

/** The synthetic district's tenant (licensed for data operations), rooted at `rootOrg`. */
export async function createBenchTenant(ds: DataSource, rootOrg: string): Promise<string> {
  const tenant = await ds.getRepository(TenantEntity).save({
    name: 'Synthetic District',
    customerId: Math.floor(Math.random() * 1e9),
    govtId: 'BENCH-1',
    regionId: 'AU-NSW',
    licences: ['data-operations'],
    rootOrgSourcedId: rootOrg,
  });
  return tenant.id;
}
