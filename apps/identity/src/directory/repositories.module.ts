import { Global, Module } from '@nestjs/common';
import { AppRepository } from './app.repository';
import { ConstituencyRepository } from './constituency.repository';
import { DeploymentRepository } from './deployment.repository';
import { DeveloperRepository } from './developer.repository';
import { IdentityProviderRepository } from './identity-provider.repository';
import { TenantRepository } from './tenant.repository';
import { TenantUserRepository, UserRepository } from './user.repository';
import { VanityDomainRepository } from './vanity-domain.repository';

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
