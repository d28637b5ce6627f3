import { AppEntity } from './app.entity';
import { DeploymentEntity } from './deployment.entity';
import { DeveloperEntity } from './developer.entity';
import { RegionEntity } from './region.entity';
import { SigningKeyEntity } from './signing-key.entity';
import { TenantEntity } from './tenant.entity';
import { WebhookEntity } from './webhook.entity';
import { ConstituencyEntity } from './constituency.entity';
import { CoreIdentityProviderEntity } from './core-identity-provider.entity';
import { IdentityProviderEntity } from './identity-provider.entity';
import { TenantUserEntity } from './tenant-user.entity';
import { UserEntity } from './user.entity';
import { VanityDomainEntity } from './vanity-domain.entity';
import { ROSTER_ENTITIES } from './roster';
import { ALERT_ENTITIES } from './alerts';
import { RESOURCE_ENTITIES } from './resources';
import { GRADEBOOK_ENTITIES } from './gradebook';
import { SIGN_IN_ENTITIES } from './sign-in';
import { SHARING_ENTITIES } from './sharing';
import { ROSTER_SYNC_ENTITIES } from './roster-sync';

export * from './app.entity';
export * from './deployment.entity';
export * from './developer.entity';
export * from './region.entity';
export * from './signing-key.entity';
export * from './tenant.entity';
export * from './webhook.entity';
export * from './constituency.entity';
export * from './core-identity-provider.entity';
export * from './identity-provider.entity';
export * from './tenant-user.entity';
export * from './user.entity';
export * from './vanity-domain.entity';
export * from './roster';
export * from './alerts';
export * from './sourced-record';
export * from './resources';
export * from './gradebook';
export * from './sign-in';
export * from './sharing';
export * from './roster-sync';

/** Every entity, listed explicitly (globs break once apps are bundled). */
export const ENTITIES = [
  RegionEntity,
  TenantEntity,
  DeveloperEntity,
  AppEntity,
  DeploymentEntity,
  SigningKeyEntity,
  WebhookEntity,
  CoreIdentityProviderEntity,
  IdentityProviderEntity,
  ConstituencyEntity,
  UserEntity,
  TenantUserEntity,
  VanityDomainEntity,
  ...ROSTER_ENTITIES,
  ...ALERT_ENTITIES,
  ...RESOURCE_ENTITIES,
  ...GRADEBOOK_ENTITIES,
  ...SIGN_IN_ENTITIES,
  ...SHARING_ENTITIES,
  ...ROSTER_SYNC_ENTITIES,
];
