import { SamlApps } from './saml-apps';
import { SamlCompletionService } from './saml-completion.service';
import { SamlCredentials } from './saml-credentials';
import { SamlLogoutService } from './saml-logout.service';
import { SamlRequests } from './saml-requests';
import { SamlSpMetadata } from './saml-sp-metadata';
import { SamlSsoService } from './saml-sso.service';
import { SamlController } from './saml.controller';

/** The SAML 2.0 identity provider's own parts; the sign-in module provides the provider host, repository, brands and log they share. */
export const SAML_PROVIDERS = [
  SamlApps,
  SamlCompletionService,
  SamlCredentials,
  SamlLogoutService,
  SamlRequests,
  SamlSpMetadata,
  SamlSsoService,
];
export const SAML_CONTROLLERS = [SamlController];
