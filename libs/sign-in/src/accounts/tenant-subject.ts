import { uuidV5 } from './upstream-identifier';

/** Namespace of the `sub` values the provider issues (UUID v5 of `<tenant id>:<user id>`). */
export const TENANT_SUBJECT_NAMESPACE = 'c4f1e2a8-3b6d-4e59-8a7c-1d2e3f4a5b6c';

/**
 * The `sub` of a person signed in at a tenant: one per person and tenant, never the bare user id.
 * A tenant controls its own identity providers and its own records of people, so it can make its
 * provider vouch for anyone's e-mail; were `sub` the same at every tenant, an app deployed at two
 * schools and keying accounts on `iss` + `sub` (as OpenID Connect tells it to) could be signed in
 * to one school's account by the other school. Stable: the same person at the same tenant always
 * gets the same `sub`.
 */
export function subjectFor(tenantId: string, userId: string): string {
  return uuidV5(TENANT_SUBJECT_NAMESPACE, `${tenantId.toLowerCase()}:${userId.toLowerCase()}`);
}
