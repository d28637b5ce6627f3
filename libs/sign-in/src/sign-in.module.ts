import { Module, type DynamicModule, type MiddlewareConsumer, type NestModule, type Type } from '@nestjs/common';
import { SharingModule } from '@edu/sharing';
import { AccountFinder } from './accounts/account-finder';
import { IdentityMapper } from './accounts/identity-mapper';
import { JitProvisioningModule } from './accounts/jit-provisioning.module';
import { SignInSharing } from './accounts/sign-in-sharing';
import { ClientAuthenticationsModule } from '@edu/rate-limit';
import { SignInLogModule } from './log/sign-in-log.module';
import { LtiModule } from './lti/lti.module';
import { OidcController } from './oidc/oidc.controller';
import { OidcInteractions } from './oidc/oidc-interactions';
import { OidcProviderHost } from './oidc/oidc-provider.host';
import { ProviderPrefetch } from './oidc/provider-prefetch';
import { BrandController } from './ui/brand/brand.controller';
import { BrandStore } from './ui/brand/brand-store';
import { PortalCsrf } from './ui/csrf';
import { PortalController } from './portal/portal.controller';
import { CompleteSignIn } from './portal/complete-sign-in';
import { PortalInteractions } from './portal/portal-interactions';
import { PortalPrefetch } from './portal/portal-prefetch';
import { RequestReadsMiddleware } from './reads/request-reads.middleware';
import { RefuseSignIn } from './portal/refuse-sign-in';
import { SchoolChoice } from './portal/school-choice';
import { StartSignIn } from './portal/start-sign-in';
import { UpstreamCallback } from './portal/upstream-callback';
import { SchoolApps } from './portal/school-apps';
import { SchoolAppsController } from './portal/school-apps.controller';
import { SAML_CONTROLLERS, SAML_PROVIDERS } from './saml/saml-parts';
import { SignInRepository } from './sign-in.repository';
import { UpstreamClient } from './upstream/upstream-client';
import { UpstreamLogins } from './upstream/upstream-logins';
import { UpstreamProviders } from './upstream/upstream-providers';
import { SignInSqlModule } from './sign-in-sql';

/** Sign-in: the OpenID Connect provider, the SAML identity provider, the upstream providers and the portal between them; data sharing decides who may sign in to each app and which claims it gets. */
@Module({
  imports: [
    JitProvisioningModule,
    SignInLogModule,
    LtiModule,
    ClientAuthenticationsModule,
    SharingModule,
    SignInSqlModule,
  ],
  controllers: [OidcController, PortalController, SchoolAppsController, BrandController, ...SAML_CONTROLLERS],
  providers: [
    SignInRepository,
    AccountFinder,
    IdentityMapper,
    SignInSharing,
    OidcProviderHost,
    ProviderPrefetch,
    OidcInteractions,
    UpstreamClient,
    UpstreamLogins,
    UpstreamProviders,
    PortalInteractions,
    PortalPrefetch,
    SchoolChoice,
    RefuseSignIn,
    StartSignIn,
    UpstreamCallback,
    CompleteSignIn,
    SchoolApps,
    BrandStore,
    PortalCsrf,
    ...SAML_PROVIDERS,
  ],
  exports: [SignInLogModule],
})
export class SignInModule implements NestModule {
  /** Each sign-in request reads a row once (reads/request-reads.ts). */
  configure(consumer: MiddlewareConsumer): void {
    consumer
      .apply(RequestReadsMiddleware)
      .forRoutes(OidcController, PortalController, SchoolAppsController, BrandController, ...SAML_CONTROLLERS);
  }

  /**
   * Sign-in inside a host app. `host` is a global module of the host exporting what sign-in
   * needs from it (`host.ts`: `SignInEnv`, `TenantProviderDirectory`, `PeopleProvisioning`).
   */
  static forHost(host: Type<unknown>): DynamicModule {
    return { module: SignInModule, imports: [host] };
  }
}
