import { AppEntity } from './app.entity';
import { DeploymentEntity } from './deployment.entity';
import { DeveloperEntity } from './developer.entity';
import { RegionEntity } from './region.entity';
import { SigningKeyEntity } from './signing-key.entity';
import { TenantEntity } from './tenant.entity';
import { WebhookEntity } from './webhook.entity';

export * from './app.entity';
export * from './deployment.entity';
export * from './developer.entity';
export * from './region.entity';
export * from './signing-key.entity';
export * from './tenant.entity';
export * from './webhook.entity';

/** Every entity, listed explicitly (globs break once apps are bundled). */
export const ENTITIES = [RegionEntity, TenantEntity, DeveloperEntity, AppEntity, DeploymentEntity, SigningKeyEntity, WebhookEntity];
