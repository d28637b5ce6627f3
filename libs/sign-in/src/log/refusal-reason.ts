/**
 * Why a sign-in was refused: the `reason` of the sign-in log (`GET /tenants/:id/sign-ins`) and of
 * the service log line. The values are read by tenants and stored in rows: never change one.
 */
export enum RefusalReason {
  // The portal's interaction (OpenID Connect).
  InteractionNotFound = 'interaction_not_found',
  InteractionMismatch = 'interaction_mismatch',
  UnknownClient = 'unknown_client',
  CsrfFailed = 'csrf_failed',
  // Which school and which way of signing in.
  NoTenant = 'no_tenant',
  UnknownTenant = 'unknown_tenant',
  UnknownHost = 'unknown_host',
  OtherTenantDomain = 'other_tenant_domain',
  AppNotDeployed = 'app_not_deployed',
  ProviderNotInUse = 'provider_not_in_use',
  // The trip to the upstream provider and back.
  UnknownState = 'unknown_state',
  StateMismatch = 'state_mismatch',
  ConfigurationChanged = 'configuration_changed',
  UpstreamError = 'upstream_error',
  /** The person went back to the app instead of signing in (the authorization ended with `access_denied`). */
  AccessDenied = 'access_denied',
  /** The authorization ended with another error (named in the service log). */
  AuthorizationFailed = 'authorization_failed',
  // Who the person is at the school, and whether the app may see them.
  NotEnrolled = 'not_enrolled',
  ProviderNotAllowed = 'provider_not_allowed',
  NotShared = 'not_shared',
  // SAML.
  NoCode = 'no_code',
  SamlStateMismatch = 'saml_state_mismatch',
  SamlTenantMismatch = 'saml_tenant_mismatch',
  SamlAcsMismatch = 'saml_acs_mismatch',
  SamlBindingUnsupported = 'saml_binding_unsupported',
  SamlMetadataInvalid = 'saml_metadata_invalid',
  SamlMetadataUrlBlocked = 'saml_metadata_url_blocked',
  SamlRequestInvalid = 'saml_request_invalid',
  SamlRequestUnsigned = 'saml_request_unsigned',
  SamlSignatureInvalid = 'saml_signature_invalid',
  SamlUnknownApp = 'saml_unknown_app',
  // LTI 1.3 launches.
  LtiUnknownProvider = 'lti_unknown_provider',
  LtiBadRequest = 'lti_bad_request',
  LtiIssuerMismatch = 'lti_issuer_mismatch',
  LtiClientMismatch = 'lti_client_mismatch',
  LtiDeploymentMismatch = 'lti_deployment_mismatch',
  LtiStateUnknown = 'lti_state_unknown',
  LtiStateMismatch = 'lti_state_mismatch',
  LtiInvalidToken = 'lti_invalid_token',
  LtiKeysUnavailable = 'lti_keys_unavailable',
  LtiMessageNotSupported = 'lti_message_not_supported',
  LtiNonceReplayed = 'lti_nonce_replayed',
  LtiPlatformError = 'lti_platform_error',
  LtiTargetNotAllowed = 'lti_target_not_allowed',
}
