import { randomInt, randomUUID } from 'node:crypto';
import type { DataSource } from 'typeorm';
import type { Licence, RegionId } from '@edu/domain';
import { AppEntity, DeploymentEntity, DeveloperEntity, TenantEntity } from '@edu/persistence';
import { generateClientId, generateClientSecret, hashClientSecret } from '@edu/signing';

export interface CreatedApp {
  app: AppEntity;
  clientId: string;
  clientSecret: string;
}

/** Builders for the rows integration tests need, written straight to the spec's database. */
export class World {
  constructor(private readonly ds: DataSource) {}

  tenant(o: { name?: string; licences?: Licence[]; region?: RegionId; rootOrg?: string } = {}): Promise<TenantEntity> {
    return this.ds.getRepository(TenantEntity).save({
      name: o.name ?? `School ${randomUUID().slice(0, 6)}`,
      customerId: randomInt(1, 2_000_000_000),
      govtId: `G${randomInt(100000, 999999)}`,
      regionId: o.region ?? 'AU-NSW',
      licences: o.licences ?? ['data-operations'],
      rootOrgSourcedId: o.rootOrg ?? null,
    });
  }

  developer(name = 'Dev Co'): Promise<DeveloperEntity> {
    return this.ds.getRepository(DeveloperEntity).save({ name, email: `${randomUUID().slice(0, 8)}@dev.example` });
  }

  async app(owner: { type: 'tenant' | 'developer'; id: string }, name = 'Partner App'): Promise<CreatedApp> {
    const clientId = generateClientId('app');
    const clientSecret = generateClientSecret();
    const app = await this.ds.getRepository(AppEntity).save({
      name,
      ownerType: owner.type,
      ownerId: owner.id,
      authType: 'oauth2' as const,
      oauth2: { redirect_uris: ['https://app.example/callback'] },
      saml: null,
      clientId,
      clientSecretHash: hashClientSecret(clientSecret),
    });
    return { app, clientId, clientSecret };
  }

  async deploy(
    appId: string,
    tenantId: string,
    scope: string[],
    o: { withCredentials?: boolean } = {},
  ): Promise<{ deployment: DeploymentEntity; clientId?: string; clientSecret?: string }> {
    const clientId = o.withCredentials ? generateClientId('dep') : undefined;
    const clientSecret = o.withCredentials ? generateClientSecret() : undefined;
    const deployment = await this.ds.getRepository(DeploymentEntity).save({
      appId,
      tenantId,
      scope,
      clientId: clientId ?? null,
      clientSecretHash: clientSecret ? hashClientSecret(clientSecret) : null,
      settings: {},
    });
    return { deployment, clientId, clientSecret };
  }
}
