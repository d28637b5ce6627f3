import { ONEROSTER_V1P2_SCOPE_KEYS, type ScopeCatalog, type ScopeKey } from '@edu/domain';

/**
 * Scopes a tenant may grant to apps it deploys. Alerts scopes are enabled only by the operator
 * (spec §5); developer and operator scopes mean nothing in a tenant-context token.
 */
export const TENANT_GRANTABLE_SCOPES: readonly ScopeKey[] = [
  'id.tenant-core.readonly',
  'id.tenant-core.write',
  'roster-core.readonly',
  'roster.readonly',
  'roster-demographics.readonly',
  'resource.readonly',
  'gradebook.readonly',
  'gradebook.createput',
  'gradebook.delete',
  ...ONEROSTER_V1P2_SCOPE_KEYS,
  'roster.events.readonly',
];

/**
 * Scopes the operator may grant, over the API (platform.admin) and in the provisioning file: the
 * tenant's, plus the alerts scopes. `platform.admin` is never granted to a deployment.
 */
export const OPERATOR_GRANTABLE_SCOPES: readonly ScopeKey[] = [
  ...TENANT_GRANTABLE_SCOPES,
  'alerts.messages.read',
  'alerts.webhooks.write',
];

export type Grantor = 'tenant' | 'operator';

/**
 * Why `scope` cannot be in a deployment's new scope list, or undefined when it can. A scope the
 * deployment already holds may stay, so a tenant can keep (never add) operator-granted scopes.
 */
export function scopeGrantProblem(
  catalog: ScopeCatalog,
  grantor: Grantor,
  scope: string,
  held: readonly string[],
): string | undefined {
  const key = catalog.keyOf(scope);
  if (!key) return 'is not a known scope URI';
  if (key === 'platform.admin') return 'is never granted to a deployment (operator scope)';
  if (held.includes(scope)) return undefined;
  if (grantor === 'tenant' && !TENANT_GRANTABLE_SCOPES.includes(key)) {
    return OPERATOR_GRANTABLE_SCOPES.includes(key)
      ? 'is enabled only by the operator (alerts scopes, spec §5)'
      : 'is not a scope a tenant can grant';
  }
  if (grantor === 'operator' && !OPERATOR_GRANTABLE_SCOPES.includes(key)) return 'is not a scope a deployment can hold';
  return undefined;
}
