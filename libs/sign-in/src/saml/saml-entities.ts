import type { AppSamlSettings } from '@edu/persistence';
import type { SamlSigningCredentials } from './saml-credentials';
import { NAME_ID_FORMAT } from './saml-name-id';
import { samlify } from './samlify';

const POST = 'urn:oasis:names:tc:SAML:2.0:bindings:HTTP-POST';
const REDIRECT = 'urn:oasis:names:tc:SAML:2.0:bindings:HTTP-Redirect';
export const RSA_SHA256 = 'http://www.w3.org/2001/04/xmldsig-more#rsa-sha256';
export const SAML_BINDINGS = { post: POST, redirect: REDIRECT } as const;

/** Where a tenant's identity provider lives: its entity id and endpoints, all under the issuer. */
export function idpEndpoints(issuer: string, tenantId: string) {
  const base = `${issuer}/saml/${tenantId}`;
  return { entityId: base, sso: `${base}/sso`, slo: `${base}/slo`, metadata: `${base}/metadata` };
}

/** The tenant's identity provider as its metadata describes it: every published certificate (two during a rotation). */
export function metadataIdp(issuer: string, tenantId: string, credentials: SamlSigningCredentials) {
  const at = idpEndpoints(issuer, tenantId);
  return samlify.IdentityProvider({
    entityID: at.entityId,
    signingCert: credentials.published,
    nameIDFormat: [NAME_ID_FORMAT.persistent, NAME_ID_FORMAT.email],
    singleSignOnService: [
      { Binding: REDIRECT, Location: at.sso },
      { Binding: POST, Location: at.sso },
    ],
    singleLogoutService: [
      { Binding: REDIRECT, Location: at.slo },
      { Binding: POST, Location: at.slo },
    ],
  });
}

/** The tenant's identity provider as it signs (the active key only) and reads requests (checking signatures when asked to). */
export function signingIdp(
  issuer: string,
  tenantId: string,
  credentials: SamlSigningCredentials,
  checkRequestSignatures: boolean,
) {
  const at = idpEndpoints(issuer, tenantId);
  return samlify.IdentityProvider({
    entityID: at.entityId,
    privateKey: credentials.privateKeyPem,
    signingCert: credentials.certificate,
    requestSignatureAlgorithm: RSA_SHA256,
    wantAuthnRequestsSigned: checkRequestSignatures,
    wantLogoutRequestSigned: checkRequestSignatures,
    nameIDFormat: [NAME_ID_FORMAT.persistent, NAME_ID_FORMAT.email],
    singleSignOnService: [{ Binding: POST, Location: at.sso }],
  });
}

/** The app as its SAML metadata describes it: its signing certificate and whether it signs its requests. */
export function metadataSp(metadataXml: string) {
  return samlify.ServiceProvider({ metadata: metadataXml });
}

/**
 * The app as the spec's fields describe it, for what we send: the audience is its `entity_id`,
 * responses go to its `reply_url` only and logout responses to its `sign_out_url`, and both the
 * response and the assertion (and logout responses) are signed whatever its metadata asks for.
 */
export function responseSp(settings: AppSamlSettings) {
  return samlify.ServiceProvider({
    entityID: settings.entity_id,
    assertionConsumerService: [{ Binding: POST, Location: settings.reply_url }],
    singleLogoutService: [{ Binding: POST, Location: settings.sign_out_url }],
    wantAssertionsSigned: true,
    wantMessageSigned: true,
    wantLogoutResponseSigned: true,
  });
}
