/** What sign-in knows of an upstream provider (core or a tenant's own). */

/** The endpoints a tenant stored for its `oauth2` provider. */
export interface TenantEndpoints {
  discovery: string;
  authorization: string;
  token: string;
  jwks: string;
}

/** Where a person authenticates: a core provider (operator configuration) or a tenant's own provider. */
export interface UpstreamProvider {
  /** `google`, `microsoft`, or the uuid of the tenant's provider. */
  id: string;
  kind: 'core' | 'tenant';
  /** Label for screen readers and the button's alternative text. */
  label: string;
  /** The issuer (core providers) or the discovery URL (tenant providers). */
  issuer: string;
  clientId: string;
  clientSecret?: string;
  scope: string;
  /** Unknown people may be created at sign-in (tenant providers with `provision_just_in_time`). */
  provisionJustInTime: boolean;
  /** A tenant's `oauth2` provider: the endpoints it stored. */
  endpoints?: TenantEndpoints;
  /** Changes when the tenant edits the provider (its client configuration is then rebuilt). */
  version?: string;
}
