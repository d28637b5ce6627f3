import type { WithheldPerson } from '@edu/sharing';

/**
 * The one place sign-in maps what a sharing withholds to claims: the OpenID Connect claims and
 * the SAML user attributes (`user.<name>`, the same names) that carry each part of the person.
 * Sign-in sends no identifier of the person in other systems (`sub` and the SAML NameID are this
 * service's own, pairwise per school and app), so `identifiers` removes nothing here.
 */
const CLAIMS_OF: Readonly<Record<keyof WithheldPerson, readonly string[]>> = {
  email: ['email', 'email_verified'],
  nickname: ['nickname'],
  identifiers: [],
};

const NONE: ReadonlySet<string> = new Set();

/** Claim and attribute names the app must not receive. */
export function withheldClaims(w: WithheldPerson): ReadonlySet<string> {
  const names = (Object.keys(CLAIMS_OF) as (keyof WithheldPerson)[]).filter((k) => w[k]).flatMap((k) => CLAIMS_OF[k]);
  return names.length > 0 ? new Set(names) : NONE;
}

/** `claims` without the withheld ones. */
export function withoutWithheld<T extends object>(claims: T, withheld: ReadonlySet<string>): T {
  if (withheld.size === 0) return claims;
  return Object.fromEntries(Object.entries(claims).filter(([k]) => !withheld.has(k))) as T;
}
