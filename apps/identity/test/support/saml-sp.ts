import { generateKeyPairSync } from 'node:crypto';
import { certificatePem, selfSignedCertificate } from '@edu/signing';

/**
 * @node-saml/node-saml, the independent service provider of the SAML tests, typed by what the
 * tests use (its declarations pull the DOM library into the whole program, so they are not imported).
 */
export interface NodeSamlProfile {
  nameID: string;
  nameIDFormat: string;
  issuer: string;
  sessionIndex?: string;
  inResponseTo?: string;
  [attribute: string]: unknown;
}

export interface NodeSaml {
  getAuthorizeUrlAsync(relayState: string, host: string | undefined, options: Record<string, unknown>): Promise<string>;
  getAuthorizeFormAsync(relayState: string, host?: string, options?: Record<string, unknown>): Promise<string>;
  validatePostResponseAsync(
    container: Record<string, string>,
  ): Promise<{ profile: NodeSamlProfile | null; loggedOut: boolean }>;
  getLogoutUrlAsync(user: NodeSamlProfile, relayState: string, options: Record<string, unknown>): Promise<string>;
  generateServiceProviderMetadata(decryptionCert: string | null, publicCerts?: string | string[] | null): string;
}

// eslint-disable-next-line @typescript-eslint/no-require-imports
const { SAML } = require('@node-saml/node-saml') as { SAML: new (options: Record<string, unknown>) => NodeSaml };

export interface TestSpOptions {
  entityId: string;
  replyUrl: string;
  ssoUrl: string;
  idpCert: string | string[];
  idpEntityId: string;
  /** Sign AuthnRequests (RSA-SHA256) and say so in the metadata. */
  signRequests?: boolean;
  binding?: 'HTTP-Redirect' | 'HTTP-POST';
  identifierFormat?: string | null;
  validateInResponseTo?: 'always' | 'ifPresent' | 'never';
}

/** An RSA key pair and a self-signed certificate, as a service provider has. */
export function spCredentials(): { privateKey: string; certificate: string } {
  const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  return {
    privateKey: privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
    certificate: certificatePem(selfSignedCertificate(privateKey, 'test service provider')),
  };
}

/** A node-saml service provider, and its metadata (what a partner would paste into `metadata_xml`). */
export function testSp(
  o: TestSpOptions,
  credentials = spCredentials(),
): { sp: NodeSaml; metadata: string; credentials: ReturnType<typeof spCredentials> } {
  const options = {
    entryPoint: o.ssoUrl,
    logoutUrl: o.ssoUrl.replace(/\/sso$/, '/slo'),
    logoutCallbackUrl: o.replyUrl.replace(/\/acs$/, '/logout'),
    issuer: o.entityId,
    callbackUrl: o.replyUrl,
    idpCert: o.idpCert,
    idpIssuer: o.idpEntityId,
    audience: o.entityId,
    wantAssertionsSigned: true,
    wantAuthnResponseSigned: true,
    validateInResponseTo: o.validateInResponseTo ?? 'always',
    authnRequestBinding: o.binding ?? 'HTTP-Redirect',
    signatureAlgorithm: 'sha256',
    digestAlgorithm: 'sha256',
    identifierFormat:
      o.identifierFormat === undefined ? 'urn:oasis:names:tc:SAML:2.0:nameid-format:persistent' : o.identifierFormat,
    disableRequestedAuthnContext: true,
    acceptedClockSkewMs: 2000,
    ...(o.signRequests ? { privateKey: credentials.privateKey, publicCert: credentials.certificate } : {}),
  };
  const sp = new SAML(options);
  return {
    sp,
    metadata: sp.generateServiceProviderMetadata(null, o.signRequests ? credentials.certificate : null),
    credentials,
  };
}
