import type { SamlClaimGroup } from '@edu/persistence';

/**
 * The person's attributes an app's `claims` may name as `user.<attribute>` (spec 2.1). An app
 * naming any other attribute is refused when it is saved, never at sign-in.
 */
export const SAML_USER_ATTRIBUTES = [
  'email',
  'name',
  'nickname',
  'picture',
  'constituencies',
  'tenant_id',
  'tenant_name',
  'subject',
] as const;
export type SamlUserAttribute = (typeof SAML_USER_ATTRIBUTES)[number];

/** What the attributes are read from: the tenant's record of the person at sign-in. */
export interface SamlPerson {
  email: string;
  name: string;
  nickname: string;
  picture: string;
  /** Names of the tenant's constituencies the person belongs to (one attribute value each). */
  constituencies: string[];
  tenantId: string;
  tenantName: string;
  /** The persistent NameID of the person at this app and tenant. */
  subject: string;
}

export interface SamlAttribute {
  /** `namespace/name` (or the bare name when the namespace is empty). */
  name: string;
  values: string[];
}

const READERS: Record<SamlUserAttribute, (p: SamlPerson) => string[]> = {
  email: (p) => [p.email],
  name: (p) => [p.name],
  nickname: (p) => [p.nickname],
  picture: (p) => [p.picture],
  constituencies: (p) => p.constituencies,
  tenant_id: (p) => [p.tenantId],
  tenant_name: (p) => [p.tenantName],
  subject: (p) => [p.subject],
};

/** The attribute name an SP sees: the claim's namespace and name joined by `/` (the usual claims-URI form). */
export function attributeName(namespace: string, name: string): string {
  if (namespace === '') return name;
  return namespace.endsWith('/') ? `${namespace}${name}` : `${namespace}/${name}`;
}

/**
 * Exactly the attributes the app's `claims` name, in their order; empty values are left out.
 * An attribute of `withheld` (user attributes the school's sharing keeps from the app, see
 * withheld-claims) is left out altogether: the app cannot tell it from one the school never sent.
 */
export function samlAttributes(
  claims: SamlClaimGroup[],
  person: SamlPerson,
  withheld: ReadonlySet<string> = new Set(),
): SamlAttribute[] {
  return claims.flatMap((group) =>
    group.claims
      .filter((claim) => !withheld.has(claim.value.slice('user.'.length)))
      .map((claim) => {
        const read = READERS[claim.value.slice('user.'.length) as SamlUserAttribute];
        return {
          name: attributeName(group.namespace, claim.name),
          values: read ? read(person).filter((v) => v !== '') : [],
        };
      }),
  );
}
