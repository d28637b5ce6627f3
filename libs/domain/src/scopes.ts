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
  // Roster change feed (design §11)
  'roster.events.readonly': { base: 'schema', path: 'scope/roster/events.readonly' },
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
  // OneRoster v1.2 (reference oneroster-v1p2 §8): accepted only by the v1p2 services, as the v1.1
  // ones above are only by v1p1.
  'v1p2.roster-core.readonly': { base: 'oneroster12', path: 'roster-core.readonly' },
  'v1p2.roster.readonly': { base: 'oneroster12', path: 'roster.readonly' },
  'v1p2.roster-demographics.readonly': { base: 'oneroster12', path: 'roster-demographics.readonly' },
  'v1p2.gradebook-core.readonly': { base: 'oneroster12', path: 'gradebook-core.readonly' },
  'v1p2.gradebook.readonly': { base: 'oneroster12', path: 'gradebook.readonly' },
  'v1p2.gradebook.createput': { base: 'oneroster12', path: 'gradebook.createput' },
  'v1p2.gradebook.createpost': { base: 'oneroster12', path: 'gradebook.createpost' },
  'v1p2.gradebook.delete': { base: 'oneroster12', path: 'gradebook.delete' },
  'v1p2.assessment.readonly': { base: 'oneroster12', path: 'assessment.readonly' },
  'v1p2.assessment.createput': { base: 'oneroster12', path: 'assessment.createput' },
  'v1p2.assessment.delete': { base: 'oneroster12', path: 'assessment.delete' },
  'v1p2.resource-core.readonly': { base: 'oneroster12', path: 'resource-core.readonly' },
  'v1p2.resource.readonly': { base: 'oneroster12', path: 'resource.readonly' },
} as const satisfies Record<string, { base: ScopeBaseName; path: string }>;

type ScopeBaseName = 'schema' | 'oneroster' | 'oneroster12';

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
  /** Base of the OneRoster v1.2 scopes; default `DEFAULT_ONEROSTER_V1P2_SCOPE_BASE`. */
  oneroster12Base?: string;
}

export const DEFAULT_ONEROSTER_SCOPE_BASE = 'https://purl.imsglobal.org/spec/or/v1p1/scope';
export const DEFAULT_ONEROSTER_V1P2_SCOPE_BASE = 'https://purl.imsglobal.org/spec/or/v1p2/scope';

/** The OneRoster v1.2 scopes (their own base, like the v1.1 ones). */
export const ONEROSTER_V1P2_SCOPE_KEYS = ALL_SCOPE_KEYS.filter((k) => SCOPE_PATHS[k].base === 'oneroster12');

/** The scope bases of a process's configuration (`SCHEMA_BASE`, `ONEROSTER_SCOPE_BASE`, `ONEROSTER_V1P2_SCOPE_BASE`). */
export function scopeBasesOf(env: {
  SCHEMA_BASE: string;
  ONEROSTER_SCOPE_BASE: string;
  ONEROSTER_V1P2_SCOPE_BASE?: string;
}): ScopeBases {
  return {
    schemaBase: env.SCHEMA_BASE,
    onerosterBase: env.ONEROSTER_SCOPE_BASE,
    oneroster12Base: env.ONEROSTER_V1P2_SCOPE_BASE ?? DEFAULT_ONEROSTER_V1P2_SCOPE_BASE,
  };
}

const trimSlash = (s: string): string => s.replace(/\/+$/, '');

export function resolveScope(key: ScopeKey, bases: ScopeBases): string {
  const def: { base: ScopeBaseName; path: string } = SCOPE_PATHS[key];
  const base =
    def.base === 'schema'
      ? bases.schemaBase
      : def.base === 'oneroster'
        ? bases.onerosterBase
        : (bases.oneroster12Base ?? DEFAULT_ONEROSTER_V1P2_SCOPE_BASE);
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
