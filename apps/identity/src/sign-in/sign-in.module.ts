import { Module } from '@nestjs/common';
import { SharingModule } from '@edu/sharing';
import { AccountFinder } from './accounts/account-finder';
import { IdentityMapper } from './accounts/identity-mapper';
import { JitProvisioningModule } from './accounts/jit-provisioning.module';
import { SignInSharing } from './accounts/sign-in-sharing';
import { ClientAuthenticationsModule } from '../oauth/client-authentications';
import { SignInLogModule } from './log/sign-in-log.module';
import { LtiModule } from './lti/lti.module';
import { OidcController } from './oidc/oidc.controller';
import { OidcProviderHost } from './oidc/oidc-provider.host';
import { BrandController } from './ui/brand/brand.controller';
import { BrandStore } from './ui/brand/brand-store';
import { PortalCsrf } from './ui/csrf';
import { PortalController } from './portal/portal.controller';
import { PortalService } from './portal/portal.service';
import { SchoolApps } from './portal/school-apps';
import { SchoolAppsController } from './portal/school-apps.controller';
import { SAML_CONTROLLERS, SAML_PROVIDERS } from './saml/saml-parts';
import { SignInRepository } from './sign-in.repository';
import { UpstreamClient } from './upstream/upstream-client';
import { UpstreamLogins } from './upstream/upstream-logins';
import { UpstreamProviders } from './upstream/upstream-providers';

/** Sign-in: the OpenID Connect provider, the SAML identity provider, the upstream providers and the portal between them; data sharing decides who may sign in to each app and which claims it gets. */
@Module({
  imports: [JitProvisioningModule, SignInLogModule, LtiModule, ClientAuthenticationsModule, SharingModule],
  controllers: [OidcController, PortalController, SchoolAppsController, BrandController, ...SAML_CONTROLLERS],
  providers: [
    SignInRepository,
    AccountFinder,
    IdentityMapper,
    SignInSharing,
    OidcProviderHost,
    UpstreamClient,
    UpstreamLogins,
    UpstreamProviders,
    PortalService,
    SchoolApps,
    BrandStore,
    PortalCsrf,
    ...SAML_PROVIDERS,
  ],
})
export class SignInModule {}
