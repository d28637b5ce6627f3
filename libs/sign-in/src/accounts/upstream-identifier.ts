import { createHash } from 'node:crypto';
import { isUuid } from '@edu/domain';

/** Namespace of identifier ids derived from upstream subjects that are not uuids (UUID v5). */
export const SUBJECT_NAMESPACE = '5b1a0c34-7f0e-4d5c-9a7e-3f6a2c9d8e10';

/**
 * The `id` of a user's `idp_identifiers` entry for an upstream subject. Identifiers are uuids
 * (spec 2.7): a subject that is one is used as it is (lower-case); any other subject (Google's
 * numeric ids, ...) becomes the UUID v5 of the subject in `SUBJECT_NAMESPACE`, so a tenant can
 * compute it and provision it ahead of the first sign-in.
 */
export function identifierIdFor(subject: string): string {
  return isUuid(subject) ? subject.toLowerCase() : uuidV5(SUBJECT_NAMESPACE, subject);
}

/** RFC 9562 UUID version 5 (SHA-1) of `name` in `namespace`. */
export function uuidV5(namespace: string, name: string): string {
  const ns = Buffer.from(namespace.replace(/-/g, ''), 'hex');
  const hash = createHash('sha1').update(ns).update(name, 'utf8').digest();
  hash[6] = (hash[6] & 0x0f) | 0x50;
  hash[8] = (hash[8] & 0x3f) | 0x80;
  const hex = hash.subarray(0, 16).toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}
