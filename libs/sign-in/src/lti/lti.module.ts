import { Module } from '@nestjs/common';
import { IdentityMapper } from '../accounts/identity-mapper';
import { JitProvisioningModule } from '../accounts/jit-provisioning.module';
import { SignInLogModule } from '../log/sign-in-log.module';
import { BrandStore } from '../ui/brand/brand-store';
import { SignInRepository } from '../sign-in.repository';
import { SignInSqlModule } from '../sign-in-sql';
import { LtiController } from './lti.controller';
import { LtiIdTokens } from './lti-id-token';
import { LtiKeys } from './lti-keys';
import { LtiLaunches } from './lti-launches';
import { LtiProviders } from './lti-providers';
import { LtiSignIns } from './lti-sign-ins';
import { LtiStore } from './lti-store';
import { LtiTargets } from './lti-targets';

/** LTI 1.3 launches from schools' learning platforms; LtiSignIns lets the portal finish the app's sign-in. */
@Module({
  imports: [JitProvisioningModule, SignInLogModule, SignInSqlModule],
  controllers: [LtiController],
  providers: [
    LtiLaunches,
    LtiSignIns,
    LtiIdTokens,
    LtiKeys,
    LtiProviders,
    LtiStore,
    LtiTargets,
    SignInRepository,
    IdentityMapper,
    BrandStore,
  ],
  exports: [LtiSignIns],
})
export class LtiModule {}
