import type { WithholdCategory } from './sharing-spec';
import { withheldFields } from './withheld-fields';

/**
 * What of a person a deployment's sharing keeps from its app, in the identity service's terms.
 * Derived from the library's withheld OneRoster user fields, so a category means the same here
 * as in the rostering API: `contact` withholds `email`, `preferred_names` the preferred names
 * (the nickname is the identity service's preferred name), `identifiers` the person's
 * identifiers in other systems (userIds; here the identity-provider identifiers).
 */
export interface WithheldPerson {
  readonly email: boolean;
  readonly nickname: boolean;
  readonly identifiers: boolean;
}

export const NOTHING_WITHHELD: WithheldPerson = Object.freeze({ email: false, nickname: false, identifiers: false });

export function withheldPerson(withhold: readonly WithholdCategory[]): WithheldPerson {
  const fields = withheldFields('user', withhold);
  if (fields.size === 0) return NOTHING_WITHHELD;
  return { email: fields.has('email'), nickname: fields.has('preferredFirstName'), identifiers: fields.has('userIds') };
}
