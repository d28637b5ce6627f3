import { createHash } from 'node:crypto';

/**
 * Everything an answer's bytes depend on besides the request's own path and query. Two requests
 * with equal inputs get byte-identical bodies, which is what lets them share a strong ETag and a
 * cached response.
 */
export interface RepresentationInputs {
  /** The host's PUBLIC_BASE_URL: every href and Link is built on it. */
  readonly publicBase: string;
  readonly apiVersion: string;
  readonly tenantId: string;
  /**
   * Visibility: the token's scopes, the tenant's root org, the deployment's output settings. Not
   * the deployment itself: two partners' apps that see the same rows printed the same way get the
   * same bytes, so the second partner's sync of a page is served from the cache (design/scale.md).
   */
  readonly scopes: readonly string[];
  readonly rootOrgSourcedId: string | null;
  readonly output: unknown;
  /**
   * The hash of the sharing spec in force for the deployment (what objects and fields it sees):
   * deployments sharing alike share answers; an activation that changes it changes every tag.
   */
  readonly sharing: string;
  readonly rosterVersion: string;
  /** Only for reads of gradebook objects: a grade written does not change a roster page. */
  readonly gradebookVersion: string | null;
  readonly path: string;
  /** The query string, normalised (`normaliseQuery`). */
  readonly query: string;
}

/**
 * Bumped whenever a release changes how answers are written from the same data (serialiser,
 * envelope, headers), so validators handed out by the previous release stop matching.
 */
export const REPRESENTATION_REVISION = 2;

/**
 * The query string in one canonical spelling: parameters sorted by name (values of a repeated
 * name keep their order), percent-encoding and `+` normalised. `?limit=5&offset=0` and
 * `?offset=0&limit=5` are the same answer, hence the same key.
 */
export function normaliseQuery(originalUrl: string): string {
  const at = originalUrl.indexOf('?');
  if (at < 0) return '';
  const params = new URLSearchParams(originalUrl.slice(at + 1));
  params.sort();
  return params.toString();
}

/** The cache key and strong entity tag of an answer: a SHA-256 of its inputs, quoted. */
export function entityTag(inputs: RepresentationInputs): string {
  const canonical = JSON.stringify([
    REPRESENTATION_REVISION,
    inputs.publicBase,
    inputs.apiVersion,
    inputs.tenantId,
    [...inputs.scopes].sort(),
    inputs.rootOrgSourcedId,
    inputs.output,
    inputs.sharing,
    inputs.rosterVersion,
    inputs.gradebookVersion,
    inputs.path,
    inputs.query,
  ]);
  return `"${createHash('sha256').update(canonical).digest('base64url')}"`;
}
