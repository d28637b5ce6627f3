/**
 * `If-None-Match` as RFC 9110 §13.1.2 reads it: `*`, or a comma-separated list of entity tags,
 * strong or weak (`W/"…"`), compared weakly (the opaque parts only).
 */
export interface IfNoneMatch {
  /** `*`: matches any current representation. */
  readonly any: boolean;
  /** The opaque tags listed, with their quotes and without any `W/`. */
  readonly tags: ReadonlySet<string>;
}

const ENTITY_TAG = /^(?:W\/)?("[\x21\x23-\x7e\x80-\xff]*")$/;

/** Undefined when the header is absent or holds nothing usable (then the request is unconditional). */
export function parseIfNoneMatch(header: string | readonly string[] | undefined): IfNoneMatch | undefined {
  if (header === undefined) return undefined;
  const members = (Array.isArray(header) ? header.join(',') : (header as string)).split(',').map((m) => m.trim());
  if (members.includes('*')) return { any: true, tags: new Set() };
  const tags = new Set<string>();
  for (const member of members) {
    const tag = ENTITY_TAG.exec(member)?.[1];
    if (tag) tags.add(tag);
  }
  return tags.size > 0 ? { any: false, tags } : undefined;
}

/** True when the client already holds this tag: the answer is 304. */
export function holds(condition: IfNoneMatch | undefined, etag: string): boolean {
  return condition !== undefined && (condition.any || condition.tags.has(etag));
}
