import type { WithholdCategory } from './sharing-spec';

/**
 * The fields each withhold category removes, per OneRoster class, by their JSON names in either
 * version (a name a version lacks is simply not there). `demographics` removes the whole
 * demographics class (`withholdsClass`) as well as the fields below.
 */
const CATEGORY_FIELDS: Readonly<Record<WithholdCategory, Readonly<Record<string, readonly string[]>>>> = {
  contact: { user: ['email', 'phone', 'sms'] },
  identifiers: { user: ['identifier', 'userIds', 'userMasterIdentifier'] },
  demographics: {},
  preferred_names: { user: ['preferredFirstName', 'preferredMiddleName', 'preferredLastName', 'pronouns'] },
  birth_date: { demographics: ['birthDate'] },
};

const NONE: ReadonlySet<string> = new Set();

/** Fields of `resource` the categories withhold (empty set when none). */
export function withheldFields(resource: string, withhold: readonly WithholdCategory[]): ReadonlySet<string> {
  if (withhold.length === 0) return NONE;
  const out = new Set<string>();
  for (const c of withhold) for (const f of CATEGORY_FIELDS[c][resource] ?? []) out.add(f);
  return out.size > 0 ? out : NONE;
}

/** True when the categories withhold every object of `resource` (demographics records). */
export function withholdsClass(resource: string, withhold: readonly WithholdCategory[]): boolean {
  return resource === 'demographics' && withhold.includes('demographics');
}
