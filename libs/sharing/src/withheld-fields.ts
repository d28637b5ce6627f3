import type { WithholdCategory } from './sharing-spec';

/**
 * The fields each withhold category removes, per OneRoster class, by their JSON names in either
 * version (a name a version lacks is simply not there). `demographics` removes the whole
 * demographics class (`withholdsClass`) as well as the fields below. `alertRecipient` and
 * `alertEntity` are the people an alert message names (spec 2.10: its recipient and each alert's
 * entity), so alert deliveries and getMessage withhold what the rostering API does.
 */
const CATEGORY_FIELDS: Readonly<Record<WithholdCategory, Readonly<Record<string, readonly string[]>>>> = {
  contact: { user: ['email', 'phone', 'sms'], alertRecipient: ['primary_email'] },
  identifiers: {
    user: ['identifier', 'userIds', 'userMasterIdentifier'],
    alertRecipient: ['identifiers'],
    alertEntity: ['identifiers'],
  },
  demographics: {},
  preferred_names: {
    user: ['preferredFirstName', 'preferredMiddleName', 'preferredLastName', 'pronouns'],
    alertRecipient: ['preferred_name'],
    alertEntity: ['preferred_name', 'pronouns'],
  },
  birth_date: { demographics: ['birthDate'] },
};

const NONE: ReadonlySet<string> = new Set();

/** Fields of `resource` the categories withhold (empty set when none). */
export function withheldFields(resource: string, withhold: readonly WithholdCategory[]): ReadonlySet<string> {
  if (withhold.length === 0) return NONE;
  const out = new Set<string>();
  for (const c of withhold) for (const f of CATEGORY_FIELDS[c]?.[resource] ?? []) out.add(f);
  return out.size > 0 ? out : NONE;
}

/** True when the categories withhold every object of `resource` (demographics records). */
export function withholdsClass(resource: string, withhold: readonly WithholdCategory[]): boolean {
  return resource === 'demographics' && withhold.includes('demographics');
}

type Json = Record<string, unknown>;
const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);

function without(o: unknown, fields: ReadonlySet<string>): unknown {
  if (!isObject(o) || fields.size === 0) return o;
  return Object.fromEntries(Object.entries(o).filter(([k]) => !fields.has(k)));
}

/**
 * An alert message's recipient and alert groups (spec 2.10, as stored) without the fields the
 * categories withhold: the recipient's `primary_email` (contact), `identifiers`, `preferred_name`,
 * and each alert entity's `identifiers`, `preferred_name` and `pronouns`. The keys are left out,
 * not nulled; the input is not changed. Categories that touch none of them return the input itself.
 */
export function withholdFromAlertMessage(
  recipient: unknown,
  alerts: readonly unknown[],
  withhold: readonly WithholdCategory[],
): { recipient: unknown; alerts: readonly unknown[] } {
  const ofRecipient = withheldFields('alertRecipient', withhold);
  const ofEntity = withheldFields('alertEntity', withhold);
  if (ofRecipient.size === 0 && ofEntity.size === 0) return { recipient, alerts };
  const group = (g: unknown): unknown =>
    isObject(g) && Array.isArray(g.alerts)
      ? { ...g, alerts: g.alerts.map((a) => (isObject(a) ? { ...a, entity: without(a.entity, ofEntity) } : a)) }
      : g;
  return { recipient: without(recipient, ofRecipient), alerts: ofEntity.size > 0 ? alerts.map(group) : alerts };
}
