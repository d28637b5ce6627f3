import { Global, Module } from '@nestjs/common';
import { PeopleProvisioning, SignInEnv, TenantProviderDirectory } from '@edu/sign-in';
import { IdentityEnv } from '../config/identity.env';
import { IdentityProviderRepository } from '../directory/identity-provider.repository';
import { UsersModule } from '../users/users.module';
import { IdentityPeopleProvisioning } from './people-provisioning';

/** What the sign-in library needs from the identity service (`@edu/sign-in`'s host ports), bound to identity's own code. */
@Global()
@Module({
  imports: [UsersModule],
  providers: [
    { provide: SignInEnv, inject: [IdentityEnv], useFactory: (env: IdentityEnv): SignInEnv => env },
    {
      provide: TenantProviderDirectory,
      inject: [IdentityProviderRepository],
      useFactory: (providers: IdentityProviderRepository): TenantProviderDirectory => providers,
    },
    { provide: PeopleProvisioning, useClass: IdentityPeopleProvisioning },
  ],
  exports: [SignInEnv, TenantProviderDirectory, PeopleProvisioning],
})
export class SignInHostModule {}
