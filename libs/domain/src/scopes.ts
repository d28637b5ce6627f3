/**
 * Scope identifiers. Tokens carry full URIs; code refers to scopes by these keys, and
 * `resolveScope()` turns a key into the URI for the configured namespace prefixes
 * (`{schema_base}` and `{oneroster_scope_base}` of the spec are configuration).
 */
export const SCOPE_PATHS = {
  // Identity API
  'id.tenant-core.readonly': { base: 'schema', path: 'scope/id/tenant-core.readonly' },
  'id.tenant-core.write': { base: 'schema', path: 'scope/id/tenant-core.write' },
  'id.apps.readonly': { base: 'schema', path: 'scope/id/apps.readonly' },
  'id.apps.write': { base: 'schema', path: 'scope/id/apps.write' },
  // Alerts API
  'alerts.messages.read': { base: 'schema', path: 'scope/alerts/messages.read' },
  'alerts.webhooks.write': { base: 'schema', path: 'scope/alerts/webhooks.write' },
  // Operator
  'platform.admin': { base: 'schema', path: 'scope/platform.admin' },
  // OneRoster v1.1
  'roster-core.readonly': { base: 'oneroster', path: 'roster-core.readonly' },
  'roster.readonly': { base: 'oneroster', path: 'roster.readonly' },
  'roster-demographics.readonly': { base: 'oneroster', path: 'roster-demographics.readonly' },
  'resource.readonly': { base: 'oneroster', path: 'resource.readonly' },
  'gradebook.readonly': { base: 'oneroster', path: 'gradebook.readonly' },
  'gradebook.createput': { base: 'oneroster', path: 'gradebook.createput' },
  'gradebook.delete': { base: 'oneroster', path: 'gradebook.delete' },
} as const satisfies Record<string, { base: 'schema' | 'oneroster'; path: string }>;

export type ScopeKey = keyof typeof SCOPE_PATHS;

export const ALL_SCOPE_KEYS = Object.keys(SCOPE_PATHS) as ScopeKey[];

/** Scopes a developer-context token (no tenant) may hold. */
export const DEVELOPER_SCOPE_KEYS: readonly ScopeKey[] = ['id.apps.readonly', 'id.apps.write'];

/** Scopes that only the operator credentials can obtain. */
export const OPERATOR_SCOPE_KEYS: readonly ScopeKey[] = ['platform.admin'];

export interface ScopeBases {
  /** `{schema_base}`, e.g. `https://api.edu.example` */
  schemaBase: string;
  /** `{oneroster_scope_base}`, e.g. `https://purl.imsglobal.org/spec/or/v1p1/scope` */
  onerosterBase: string;
}

export const DEFAULT_ONEROSTER_SCOPE_BASE = 'https://purl.imsglobal.org/spec/or/v1p1/scope';

const trimSlash = (s: string): string => s.replace(/\/+$/, '');

export function resolveScope(key: ScopeKey, bases: ScopeBases): string {
  const def = SCOPE_PATHS[key];
  const base = def.base === 'schema' ? bases.schemaBase : bases.onerosterBase;
  return `${trimSlash(base)}/${def.path}`;
}

/** Two-way map between keys and URIs for one configuration. */
export class ScopeCatalog {
  private readonly byKey = new Map<ScopeKey, string>();
  private readonly byUri = new Map<string, ScopeKey>();

  constructor(readonly bases: ScopeBases) {
    for (const key of ALL_SCOPE_KEYS) {
      const uri = resolveScope(key, bases);
      this.byKey.set(key, uri);
      this.byUri.set(uri, key);
    }
  }

  uri(key: ScopeKey): string {
    return this.byKey.get(key) as string;
  }

  keyOf(uri: string): ScopeKey | undefined {
    return this.byUri.get(uri);
  }

  isKnown(uri: string): boolean {
    return this.byUri.has(uri);
  }

  uris(keys: readonly ScopeKey[]): string[] {
    return keys.map((k) => this.uri(k));
  }
}
