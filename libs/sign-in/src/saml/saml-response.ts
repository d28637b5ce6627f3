import { randomUUID } from 'node:crypto';
import type { AppSamlSettings } from '@edu/persistence';
import type { SamlAttribute } from './saml-attributes';
import { signingIdp, responseSp } from './saml-entities';
import type { SamlSigningCredentials } from './saml-credentials';
import { samlify } from './samlify';

/** How long the assertion may be used (Conditions and SubjectConfirmationData NotOnOrAfter). */
export const ASSERTION_LIFETIME_SECONDS = 300;
const { replaceTagsByValue } = samlify.SamlLib;

export interface LoginResponseInput {
  issuer: string;
  tenantId: string;
  app: AppSamlSettings;
  credentials: SamlSigningCredentials;
  /** The AuthnRequest's ID; absent for an unsolicited (IdP-initiated) response. */
  inResponseTo?: string;
  nameId: string;
  nameIdFormat: string;
  /** Identifies this sign-in at the IdP, for single logout. */
  sessionIndex: string;
  attributes: SamlAttribute[];
  now?: Date;
}

/** One `<saml:Attribute>` per claim; names and values are placeholders, filled (and XML-escaped) by replaceTagsByValue. */
function attributeStatement(attributes: SamlAttribute[]): string {
  if (attributes.length === 0) return '';
  const each = attributes.map(
    (a, i) =>
      `<saml:Attribute Name="{AttrName${i}}" NameFormat="urn:oasis:names:tc:SAML:2.0:attrname-format:uri">` +
      a.values
        .map((_v, j) => `<saml:AttributeValue xsi:type="xs:string">{AttrValue${i}_${j}}</saml:AttributeValue>`)
        .join('') +
      `</saml:Attribute>`,
  );
  return `<saml:AttributeStatement>${each.join('')}</saml:AttributeStatement>`;
}

function template(attributes: SamlAttribute[], solicited: boolean): string {
  const inResponseTo = solicited ? ' InResponseTo="{InResponseTo}"' : '';
  return (
    `<samlp:Response xmlns:samlp="urn:oasis:names:tc:SAML:2.0:protocol" xmlns:saml="urn:oasis:names:tc:SAML:2.0:assertion" ID="{ID}" Version="2.0" IssueInstant="{IssueInstant}" Destination="{Destination}"${inResponseTo}>` +
    `<saml:Issuer>{Issuer}</saml:Issuer><samlp:Status><samlp:StatusCode Value="urn:oasis:names:tc:SAML:2.0:status:Success"/></samlp:Status>` +
    `<saml:Assertion xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" xmlns:xs="http://www.w3.org/2001/XMLSchema" ID="{AssertionID}" Version="2.0" IssueInstant="{IssueInstant}">` +
    `<saml:Issuer>{Issuer}</saml:Issuer>` +
    `<saml:Subject><saml:NameID Format="{NameIDFormat}">{NameID}</saml:NameID><saml:SubjectConfirmation Method="urn:oasis:names:tc:SAML:2.0:cm:bearer">` +
    `<saml:SubjectConfirmationData NotOnOrAfter="{NotOnOrAfter}" Recipient="{Destination}"${inResponseTo}/></saml:SubjectConfirmation></saml:Subject>` +
    `<saml:Conditions NotBefore="{IssueInstant}" NotOnOrAfter="{NotOnOrAfter}"><saml:AudienceRestriction><saml:Audience>{Audience}</saml:Audience></saml:AudienceRestriction></saml:Conditions>` +
    `<saml:AuthnStatement AuthnInstant="{IssueInstant}" SessionIndex="{SessionIndex}"><saml:AuthnContext><saml:AuthnContextClassRef>urn:oasis:names:tc:SAML:2.0:ac:classes:unspecified</saml:AuthnContextClassRef></saml:AuthnContext></saml:AuthnStatement>` +
    `${attributeStatement(attributes)}</saml:Assertion></samlp:Response>`
  );
}

function values(input: LoginResponseInput, id: string, issuer: string): Record<string, string> {
  const now = input.now ?? new Date();
  const tags: Record<string, string> = {
    ID: id,
    AssertionID: `_${randomUUID()}`,
    IssueInstant: now.toISOString(),
    NotOnOrAfter: new Date(now.getTime() + ASSERTION_LIFETIME_SECONDS * 1000).toISOString(),
    Destination: input.app.reply_url,
    InResponseTo: input.inResponseTo ?? '',
    Issuer: issuer,
    NameIDFormat: input.nameIdFormat,
    NameID: input.nameId,
    Audience: input.app.entity_id,
    SessionIndex: input.sessionIndex,
  };
  input.attributes.forEach((a, i) => {
    tags[`AttrName${i}`] = a.name;
    a.values.forEach((v, j) => (tags[`AttrValue${i}_${j}`] = v));
  });
  return tags;
}

/**
 * A signed SAML response (the response and its assertion, RSA-SHA256) for the app's `reply_url`,
 * base64 for the HTTP-POST binding. Every value is XML-escaped by samlify's template filler.
 */
export async function loginResponse(input: LoginResponseInput): Promise<string> {
  const idp = signingIdp(input.issuer, input.tenantId, input.credentials, false);
  const sp = responseSp(input.app);
  const issuer = idp.entityMeta.getEntityID();
  const id = `_${randomUUID()}`;
  const requestInfo = input.inResponseTo ? { extract: { request: { id: input.inResponseTo } } } : {};
  const built = await idp.createLoginResponse(
    sp,
    requestInfo,
    'post',
    {},
    {
      customTagReplacement: () => ({
        id,
        context: replaceTagsByValue(template(input.attributes, Boolean(input.inResponseTo)), values(input, id, issuer)),
      }),
    },
  );
  return built.context;
}
