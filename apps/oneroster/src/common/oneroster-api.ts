/**
 * The two bindings served from the same data (design §9): OneRoster v1.1 under one root, and
 * v1.2 as three services (rostering, gradebook, resources) under their own roots, each accepting
 * only its own version's scopes. Controllers, the read path and the error filter take these
 * descriptors instead of branching on a version string.
 */
import type { ScopeKey } from '@edu/domain';
import type { OneRosterVersion } from '@edu/oneroster-query';
import type { OneRosterService } from '../query/roster-tables';

/** Which scopes open which kind of operation (reference §9 / v1.2 §8). */
export interface ApiScopes {
  /** getAll* / get* of the rostering classes (not demographics). */
  readonly rosterBase: readonly ScopeKey[];
  /** The rostering relationship reads (`…For…`). */
  readonly rosterRelated: readonly ScopeKey[];
  readonly demographics: readonly ScopeKey[];
  /** getAll* / get* of categories, line items, results (and v1.2 score scales). */
  readonly gradebookBase: readonly ScopeKey[];
  /** The gradebook relationship reads (a class's line items, results, categories, ...). */
  readonly gradebookRelated: readonly ScopeKey[];
  readonly gradebookPut: readonly ScopeKey[];
  /** v1.2 bulk POSTs; none in v1.1. */
  readonly gradebookPost: readonly ScopeKey[];
  readonly gradebookDelete: readonly ScopeKey[];
  /** v1.2 assessment line items and results; none in v1.1. */
  readonly assessmentRead: readonly ScopeKey[];
  readonly assessmentPut: readonly ScopeKey[];
  readonly assessmentDelete: readonly ScopeKey[];
  readonly resourceBase: readonly ScopeKey[];
  readonly resourceRelated: readonly ScopeKey[];
}

export interface OneRosterApi {
  readonly version: OneRosterVersion;
  /** Route prefix of each service, without a leading slash (v1.1: one shared root). */
  readonly prefix: Readonly<Record<OneRosterService, string>>;
  readonly scopes: ApiScopes;
}

const V1P1_ROOT = 'ims/oneroster/v1p1';
/** Rostering reads: either scope opens every read but demographics (spec 5, design §8). */
const V1P1_ROSTER: ScopeKey[] = ['roster-core.readonly', 'roster.readonly'];
/** Gradebook reads: the read scope, or the write scope (a grade-sync client reads back what it writes). */
const V1P1_GRADEBOOK_READ: ScopeKey[] = ['gradebook.readonly', 'gradebook.createput'];

export const V1P1_API: OneRosterApi = {
  version: 'v1p1',
  prefix: { rostering: V1P1_ROOT, gradebook: V1P1_ROOT, resources: V1P1_ROOT },
  scopes: {
    rosterBase: V1P1_ROSTER,
    rosterRelated: V1P1_ROSTER,
    demographics: ['roster-demographics.readonly'],
    gradebookBase: V1P1_GRADEBOOK_READ,
    gradebookRelated: V1P1_GRADEBOOK_READ,
    gradebookPut: ['gradebook.createput'],
    gradebookPost: [],
    gradebookDelete: ['gradebook.delete'],
    assessmentRead: [],
    assessmentPut: [],
    assessmentDelete: [],
    resourceBase: ['resource.readonly'],
    resourceRelated: ['resource.readonly'],
  },
};

/** v1.2: the scopes of the official OpenAPI files, operation by operation (reference v1.2 §8). */
export const V1P2_API: OneRosterApi = {
  version: 'v1p2',
  prefix: {
    rostering: 'ims/oneroster/rostering/v1p2',
    gradebook: 'ims/oneroster/gradebook/v1p2',
    resources: 'ims/oneroster/resources/v1p2',
  },
  scopes: {
    rosterBase: ['v1p2.roster-core.readonly', 'v1p2.roster.readonly'],
    rosterRelated: ['v1p2.roster.readonly'],
    demographics: ['v1p2.roster-demographics.readonly'],
    gradebookBase: ['v1p2.gradebook-core.readonly', 'v1p2.gradebook.readonly'],
    gradebookRelated: ['v1p2.gradebook.readonly'],
    gradebookPut: ['v1p2.gradebook.createput'],
    gradebookPost: ['v1p2.gradebook.createpost'],
    gradebookDelete: ['v1p2.gradebook.delete'],
    assessmentRead: ['v1p2.assessment.readonly'],
    assessmentPut: ['v1p2.assessment.createput'],
    assessmentDelete: ['v1p2.assessment.delete'],
    resourceBase: ['v1p2.resource-core.readonly', 'v1p2.resource.readonly'],
    resourceRelated: ['v1p2.resource.readonly'],
  },
};

export const ONEROSTER_APIS: readonly OneRosterApi[] = [V1P1_API, V1P2_API];

/** The binding a request path belongs to (errors answer in its format), or undefined outside both. */
export function apiOfPath(path: string): OneRosterApi | undefined {
  const trimmed = path.replace(/^\/+/, '');
  return ONEROSTER_APIS.find((api) =>
    Object.values(api.prefix).some((p) => trimmed === p || trimmed.startsWith(`${p}/`)),
  );
}

/**
 * Names a controller class made for a binding: v1.1 keeps the plain name, v1.2 gets a suffix
 * (`UsersControllerV1p2`), so logs and the route inventory tell the two apart.
 */
export function namedFor<T extends abstract new (...args: never[]) => unknown>(api: OneRosterApi, cls: T): T {
  if (api.version !== 'v1p1') Object.defineProperty(cls, 'name', { value: `${cls.name}V${api.version.slice(1)}` });
  return cls;
}
