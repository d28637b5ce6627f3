// Sign-in as the identity service hosts it: the module, its host ports and settings.
export { SignInModule } from './sign-in.module';
export { SignInWarmUpModule } from './warm-up';
export * from './host';
export { SignInEnv, WithSignIn, oidcIssuer } from './sign-in.env';
// The sign-in log, read by the host's API.
export { SignInLogModule } from './log/sign-in-log.module';
export { SignInEventRepository, type SignInEventRow } from './log/sign-in-event.repository';
export { SignInLogRetention } from './log/sign-in-log-retention';
// Shared with the host: its overload page, and the attributes a SAML app may ask for.
export { sendRetryLaterPage } from './ui/retry-later-page';
export { SAML_USER_ATTRIBUTES } from './saml/saml-attributes';
// What the sign-in suites check answers against (subjects, identifiers, page policy, SAML and LTI pieces).
export { subjectFor } from './accounts/tenant-subject';
export { identifierIdFor } from './accounts/upstream-identifier';
export { contrastRatio } from './ui/brand/contrast';
export { PAGE_CSP } from './ui/html';
export { NAME_ID_FORMAT, persistentNameId } from './saml/saml-name-id';
export { SamlCredentials } from './saml/saml-credentials';
export { SamlSpMetadata } from './saml/saml-sp-metadata';
export { loginResponse } from './saml/saml-response';
export { metadataIdp } from './saml/saml-entities';
export { LtiKeys } from './lti/lti-keys';
// What the sign-in suites check the portal's batched read against.
export { PortalPrefetch } from './portal/portal-prefetch';
export { UpstreamProviders } from './upstream/upstream-providers';
export { withRequestReads } from './reads/request-reads';
