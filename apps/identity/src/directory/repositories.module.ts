import { Global, Module } from '@nestjs/common';
import { AppRepository } from '../apps/app.repository';
import { ConstituencyRepository } from '../constituencies/constituency.repository';
import { DeploymentRepository } from '../deployments/deployment.repository';
import { DeveloperRepository } from '../developers/developer.repository';
import { IdentityProviderRepository } from '../identity-providers/identity-provider.repository';
import { TenantRepository } from '../tenants/tenant.repository';
import { TenantUserRepository, UserRepository } from '../users/user.repository';
import { VanityDomainRepository } from '../vanity-domains/vanity-domain.repository';

const REPOSITORIES = [
  AppRepository,
  ConstituencyRepository,
  DeploymentRepository,
  DeveloperRepository,
  IdentityProviderRepository,
  TenantRepository,
  TenantUserRepository,
  UserRepository,
  VanityDomainRepository,
];

/** Every identity repository, shared by the feature services (which cross-check each other's rows). */
@Global()
@Module({ providers: REPOSITORIES, exports: REPOSITORIES })
export class IdentityRepositoriesModule {}
