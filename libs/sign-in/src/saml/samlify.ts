/**
 * samlify, typed by what this module uses of it. Its own declarations import @xmldom/xmldom's,
 * which pull the DOM library's globals (fetch, BodyInit, ...) into every file of the program, so
 * they are not imported: this narrow interface is checked against samlify's behaviour by the tests.
 */
export interface SamlifyEntity {
  entityMeta: {
    getEntityID(): string;
    isAuthnRequestSigned?(): boolean;
    getX509Certificate?(use: string): string | string[] | null;
  };
  entitySetting: Record<string, unknown>;
  getMetadata(): string;
}

export interface SamlifyFlowResult {
  samlContent: string;
  extract: Record<string, unknown> & { request?: { id?: string } };
  sigAlg?: string | null;
}

export interface SamlifyHttpRequest {
  query?: Record<string, unknown>;
  body?: Record<string, unknown>;
  octetString?: string;
}

export interface SamlifyIdp extends SamlifyEntity {
  parseLoginRequest(
    sp: SamlifyEntity,
    binding: 'redirect' | 'post',
    req: SamlifyHttpRequest,
  ): Promise<SamlifyFlowResult>;
  parseLogoutRequest(
    sp: SamlifyEntity,
    binding: 'redirect' | 'post',
    req: SamlifyHttpRequest,
  ): Promise<SamlifyFlowResult>;
  createLogoutResponse(
    sp: SamlifyEntity,
    requestInfo: { extract: { request: { id: string } } },
    binding: 'post',
    options?: { relayState?: string },
  ): { context: string };
  createLoginResponse(
    sp: SamlifyEntity,
    requestInfo: { extract?: { request: { id: string } } },
    binding: 'post',
    user: Record<string, unknown>,
    options: { customTagReplacement: (template: string) => { id: string; context: string }; relayState?: string },
  ): Promise<{ context: string }>;
}

export interface SamlifyModule {
  IdentityProvider(settings: Record<string, unknown>): SamlifyIdp;
  ServiceProvider(settings: Record<string, unknown>): SamlifyEntity;
  setSchemaValidator(v: { validate: (xml: string) => Promise<unknown> }): void;
  SamlLib: { replaceTagsByValue(xml: string, values: Record<string, string>): string };
}

// eslint-disable-next-line @typescript-eslint/no-require-imports
export const samlify = require('samlify') as SamlifyModule;
// eslint-disable-next-line @typescript-eslint/no-require-imports
const schemaValidator = require('@authenio/samlify-node-xmllint') as { validate: (xml: string) => Promise<unknown> };

// Every message samlify reads is validated against the SAML schemas (libxml2 in JavaScript: offline, no Java).
samlify.setSchemaValidator(schemaValidator);

/** The smallest message the SAML schemas accept. */
const WARM_UP_MESSAGE =
  '<samlp:AuthnRequest xmlns:samlp="urn:oasis:names:tc:SAML:2.0:protocol" xmlns:saml="urn:oasis:names:tc:SAML:2.0:assertion"' +
  ' ID="_warm-up" Version="2.0" IssueInstant="2000-01-01T00:00:00Z"><saml:Issuer>urn:warm-up</saml:Issuer></samlp:AuthnRequest>';

/**
 * The validator's first run compiles libxml2's JavaScript: seconds with the event loop blocked,
 * where later runs take milliseconds. Run once at boot, so no person's sign-in pays for it.
 */
export async function warmUpSchemaValidator(): Promise<void> {
  await schemaValidator.validate(WARM_UP_MESSAGE);
}
