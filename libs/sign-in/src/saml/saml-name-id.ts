import { uuidV5 } from '../accounts/upstream-identifier';

/** Namespace of persistent NameIDs (UUID v5 of `<tenant id>:<app id>:<user id>`). */
export const SAML_NAME_ID_NAMESPACE = '8d3f6c1e-52a4-4b7e-9f10-6a2c7e4b9d35';

export const NAME_ID_FORMAT = {
  persistent: 'urn:oasis:names:tc:SAML:2.0:nameid-format:persistent',
  email: 'urn:oasis:names:tc:SAML:1.1:nameid-format:emailAddress',
} as const;

/**
 * The persistent NameID of a person for one app at one tenant: stable, opaque, and different for
 * every app (two apps cannot correlate people by it) and every tenant (a school vouches only for
 * its own records of people, as with the OpenID Connect `sub`).
 */
export function persistentNameId(tenantId: string, appId: string, userId: string): string {
  return uuidV5(SAML_NAME_ID_NAMESPACE, `${tenantId.toLowerCase()}:${appId.toLowerCase()}:${userId.toLowerCase()}`);
}
