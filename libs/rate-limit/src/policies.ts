/**
 * The budgets of every route group, from the service's configuration. A request belongs to one
 * route group; each group has one or more budgets, checked in order (a refused request stops at
 * the first budget it lacks, so a client that ignores its 429s never spends its tenant's budget).
 */

/**
 * Route groups: which budgets a request spends. `token`: the client credentials token endpoint;
 * `oidc-token`: the OpenID Connect provider's (code and refresh grants); `client-auth`: the other
 * endpoints where a client authenticates with its secret (introspection, revocation).
 */
export type RouteGroup =
  | 'token'
  | 'oidc-token'
  | 'client-auth'
  | 'read'
  | 'write'
  | 'gradebook-write'
  | 'alert-submission'
  | 'anonymous'
  | 'sign-in'
  | 'sign-in-asset';

/** Groups of requests where a client authenticates with its secret: counted by the client id they name. */
export const CLIENT_AUTH_GROUPS: ReadonlySet<RouteGroup> = new Set<RouteGroup>(['token', 'oidc-token', 'client-auth']);

/** Groups counted by source address only, with or without a token (a browser's sign-in has none). */
export const ADDRESS_GROUPS: ReadonlySet<RouteGroup> = new Set<RouteGroup>(['sign-in', 'sign-in-asset']);

/** Who a budget belongs to; `client-address`: one client id asked for from one source address. */
export type PartitionKind = 'client' | 'tenant' | 'address' | 'client-address';

/**
 * What spends a point of a budget: every request (before it is handled), or only a request whose
 * client then authenticated (`success`) or failed to (`failure`). The last two are only checked
 * before the request and spent once the endpoint knows (`settleClientAuthentication`), so nobody
 * can spend a budget of a client whose secret they do not hold.
 */
export type SpentBy = 'request' | 'success' | 'failure';

/** Groups whose client budget a deployment setting may override (`rate_limit_<group>` settings). */
export type OverridableGroup = 'read' | 'write' | 'gradebook-write';
export const OVERRIDABLE_GROUPS: readonly OverridableGroup[] = ['read', 'write', 'gradebook-write'];

/**
 * What happens while Redis cannot be reached: `allow` (fail open: reads keep working, counted by
 * the warning metric), `local` (each process counts on its own, so guessing secrets stays slow)
 * or `refuse` (503 with Retry-After: writes wait for the counters to be back).
 */
export type WhenStoreDown = 'allow' | 'local' | 'refuse';

export interface Budget {
  /** Policy name in the `RateLimit` / `RateLimit-Policy` headers. */
  readonly policy: string;
  readonly partition: PartitionKind;
  readonly quota: number;
  readonly spentBy: SpentBy;
}

export interface GroupRules {
  readonly budgets: readonly Budget[];
  readonly whenStoreDown: WhenStoreDown;
}

/** The configured quotas (per window), as `WithTrafficControl` reads them. */
export interface Quotas {
  RATE_LIMIT_WINDOW_SECONDS: number;
  RATE_LIMIT_TOKEN_PER_CLIENT: number;
  RATE_LIMIT_TOKEN_PER_ADDRESS: number;
  RATE_LIMIT_TOKEN_FAILURES_PER_CLIENT_ADDRESS: number;
  RATE_LIMIT_TOKEN_FAILURES_PER_ADDRESS: number;
  RATE_LIMIT_READ_PER_CLIENT: number;
  RATE_LIMIT_READ_PER_TENANT: number;
  RATE_LIMIT_WRITE_PER_CLIENT: number;
  RATE_LIMIT_WRITE_PER_TENANT: number;
  RATE_LIMIT_GRADEBOOK_WRITE_PER_CLIENT: number;
  RATE_LIMIT_GRADEBOOK_WRITE_PER_TENANT: number;
  RATE_LIMIT_ALERT_SUBMISSIONS: number;
  RATE_LIMIT_ANONYMOUS_PER_ADDRESS: number;
  RATE_LIMIT_SIGN_IN_PER_ADDRESS: number;
  RATE_LIMIT_SIGN_IN_ASSETS_PER_ADDRESS: number;
}

const budget = (policy: string, partition: PartitionKind, quota: number, spentBy: SpentBy = 'request'): Budget => ({
  policy,
  partition,
  quota,
  spentBy,
});

/**
 * Failed client authentications, per source address and per (client id, address): a guesser runs
 * out of them, the client with its secret at another address never does (nothing is counted per
 * client id alone before the client has authenticated).
 */
const failureBudgets = (q: Quotas): Budget[] => [
  budget('token-failures-address', 'address', q.RATE_LIMIT_TOKEN_FAILURES_PER_ADDRESS, 'failure'),
  budget('token-failures-client-address', 'client-address', q.RATE_LIMIT_TOKEN_FAILURES_PER_CLIENT_ADDRESS, 'failure'),
];

/** Every group's budgets with the configured quotas. */
export function groupRules(q: Quotas): Record<RouteGroup, GroupRules> {
  return {
    // Address first: a burst of guessed client ids from one address stops there. The client's own
    // budget counts only the requests it authenticated, so guessing its secret never spends it.
    token: {
      budgets: [
        budget('token-address', 'address', q.RATE_LIMIT_TOKEN_PER_ADDRESS),
        ...failureBudgets(q),
        budget('token-client', 'client', q.RATE_LIMIT_TOKEN_PER_CLIENT, 'success'),
      ],
      whenStoreDown: 'local',
    },
    // Each code exchange is a person's sign-in: an app's sign-ins at every school would outgrow a
    // per-client budget at peak, so only the address and failure budgets apply (shared with /oauth/token).
    'oidc-token': {
      budgets: [budget('token-address', 'address', q.RATE_LIMIT_TOKEN_PER_ADDRESS), ...failureBudgets(q)],
      whenStoreDown: 'local',
    },
    // Introspection and revocation take the client's secret too: the same failure budgets, so a
    // guesser gains nothing by moving there; their requests spend the anonymous budget.
    'client-auth': {
      budgets: [budget('anonymous', 'address', q.RATE_LIMIT_ANONYMOUS_PER_ADDRESS), ...failureBudgets(q)],
      whenStoreDown: 'local',
    },
    read: {
      budgets: [
        budget('read-client', 'client', q.RATE_LIMIT_READ_PER_CLIENT),
        budget('read-tenant', 'tenant', q.RATE_LIMIT_READ_PER_TENANT),
      ],
      whenStoreDown: 'allow',
    },
    write: {
      budgets: [
        budget('write-client', 'client', q.RATE_LIMIT_WRITE_PER_CLIENT),
        budget('write-tenant', 'tenant', q.RATE_LIMIT_WRITE_PER_TENANT),
      ],
      whenStoreDown: 'refuse',
    },
    'gradebook-write': {
      budgets: [
        budget('gradebook-write-client', 'client', q.RATE_LIMIT_GRADEBOOK_WRITE_PER_CLIENT),
        budget('gradebook-write-tenant', 'tenant', q.RATE_LIMIT_GRADEBOOK_WRITE_PER_TENANT),
      ],
      whenStoreDown: 'refuse',
    },
    'alert-submission': {
      budgets: [budget('alert-submissions', 'client', q.RATE_LIMIT_ALERT_SUBMISSIONS)],
      whenStoreDown: 'refuse',
    },
    anonymous: {
      budgets: [budget('anonymous', 'address', q.RATE_LIMIT_ANONYMOUS_PER_ADDRESS)],
      whenStoreDown: 'allow',
    },
    // A school's people sign in from one NAT address: their own budgets, sized for a school's morning.
    'sign-in': { budgets: [budget('sign-in', 'address', q.RATE_LIMIT_SIGN_IN_PER_ADDRESS)], whenStoreDown: 'allow' },
    'sign-in-asset': {
      budgets: [budget('sign-in-assets', 'address', q.RATE_LIMIT_SIGN_IN_ASSETS_PER_ADDRESS)],
      whenStoreDown: 'allow',
    },
  };
}

/** Who is asking, as far as the budgets care. */
export interface Subject {
  readonly group: RouteGroup;
  /** Partition key of the client budget (deployment, app or operator; the client id a token request names). */
  readonly client?: string;
  readonly tenant?: string;
  readonly address: string;
  /** The deployment whose settings may override the client budget. */
  readonly deploymentId?: string;
}

/** The budgets a subject spends: its group's, skipping partitions it has none of (a developer token has no tenant). */
export function budgetsFor(rules: GroupRules, subject: Subject, clientQuotaOverride?: number): Budget[] {
  const out: Budget[] = [];
  for (const b of rules.budgets) {
    const key = partitionOf(subject, b.partition);
    if (key === undefined) continue;
    out.push(b.partition === 'client' && clientQuotaOverride !== undefined ? { ...b, quota: clientQuotaOverride } : b);
  }
  return out;
}

export function partitionOf(subject: Subject, kind: PartitionKind): string | undefined {
  switch (kind) {
    case 'client':
      return subject.client;
    case 'tenant':
      return subject.tenant;
    case 'address':
      return subject.address;
    case 'client-address':
      // An address never holds '|', so the key names one pair whatever the client id holds.
      return subject.client === undefined ? undefined : `${subject.client}|${subject.address}`;
  }
}
