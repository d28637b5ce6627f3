/** Licences a tenant can hold (design §4). */
export const LICENCES = ['data-operations', 'advanced'] as const;
export type Licence = (typeof LICENCES)[number];

/** Regions named by the spec. */
export const REGION_IDS = ['AU-NSW', 'SG'] as const;
export type RegionId = (typeof REGION_IDS)[number];

/** Who a verified access token speaks for. */
export type Principal = TenantPrincipal | DeveloperPrincipal | OperatorPrincipal;

interface PrincipalBase {
  /** App id (`sub`), or `operator` for the operator credentials. */
  appId: string;
  clientId: string;
  /** Full scope URIs granted to the token. */
  scopes: ReadonlySet<string>;
  tokenId: string;
}

export interface TenantPrincipal extends PrincipalBase {
  kind: 'tenant';
  tenantId: string;
  deploymentId?: string;
  region?: string;
}

export interface DeveloperPrincipal extends PrincipalBase {
  kind: 'developer';
  developerId: string;
}

export interface OperatorPrincipal extends PrincipalBase {
  kind: 'operator';
}

export const UUID_PATTERN = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export function isUuid(value: unknown): value is string {
  return typeof value === 'string' && UUID_PATTERN.test(value);
}
