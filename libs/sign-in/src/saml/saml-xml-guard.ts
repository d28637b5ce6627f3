import { readXml, type XmlElement } from '@edu/content-checks';

export const SAML_PROTOCOL_NS = 'urn:oasis:names:tc:SAML:2.0:protocol';
export const SAML_ASSERTION_NS = 'urn:oasis:names:tc:SAML:2.0:assertion';
const DSIG_NS = 'http://www.w3.org/2000/09/xmldsig#';
/** Far above any AuthnRequest or LogoutRequest seen in practice, far below anything costly to read. */
export const MAX_SAML_MESSAGE_BYTES = 64 * 1024;

const attr = (e: XmlElement, local: string) => e.attributes.find((a) => a.local === local && a.uri === '')?.value;

/**
 * Reads a SAML protocol message from a service provider before any SAML library sees it, with the
 * platform's XML reader (no DTD, so no entity expansion or external entities), and refuses the
 * shapes behind known attacks on XML signatures and identifiers:
 * - comments and processing instructions anywhere (a comment inside a NameID or Issuer makes
 *   parsers disagree on its text);
 * - a second element of the root's kind anywhere (signature wrapping hides a signed copy);
 * - a signature that is not a direct child of the root, more than one, or one whose reference
 *   is not exactly the root's ID (it would vouch for some other element).
 * Returns the problem, or what it read of the message when it may be handed on.
 */
export function readSamlMessage(
  xml: string,
  rootLocal: 'AuthnRequest' | 'LogoutRequest' | 'LogoutResponse',
): SamlMessageFacts | { problem: string } {
  if (Buffer.byteLength(xml, 'utf8') > MAX_SAML_MESSAGE_BYTES) return { problem: 'message too large' };
  let root: XmlElement | undefined;
  let sameKind = 0;
  let signatures = 0;
  const references: string[] = [];
  const texts: Record<string, string> = {};
  let nameIdPolicyFormat: string | undefined;
  const read = readXml(xml, {
    comment: () => 'comments are not allowed in SAML messages',
    processingInstruction: (target) =>
      target.toLowerCase() === 'xml' ? undefined : 'processing instructions are not allowed in SAML messages',
    text: (text, parent) => {
      if (parent && parent.uri === SAML_ASSERTION_NS && (parent.local === 'Issuer' || parent.local === 'NameID'))
        texts[parent.local] = (texts[parent.local] ?? '') + text;
      return undefined;
    },
    element: (e, parent) => {
      root ??= e;
      if (e.uri === SAML_ASSERTION_NS && (e.local === 'Issuer' || e.local === 'NameID') && parent !== root)
        return `${e.local} outside the message element`;
      if (e.uri === SAML_PROTOCOL_NS && e.local === 'NameIDPolicy') nameIdPolicyFormat = attr(e, 'Format');
      if (e.uri === SAML_PROTOCOL_NS && e.local === rootLocal && ++sameKind > 1) return `more than one ${rootLocal}`;
      if (e.uri === DSIG_NS && e.local === 'Signature') {
        if (parent !== root || ++signatures > 1) return 'a signature outside the message element';
      }
      if (e.uri === DSIG_NS && e.local === 'Reference') references.push(attr(e, 'URI') ?? '');
      return undefined;
    },
  });
  if (!read.ok) return { problem: read.error };
  if (read.root.uri !== SAML_PROTOCOL_NS || read.root.local !== rootLocal)
    return { problem: `not a SAML ${rootLocal}` };
  const id = attr(read.root, 'ID');
  if (!id) return { problem: `the ${rootLocal} has no ID` };
  if (signatures > 0 && (references.length !== 1 || references[0] !== `#${id}`))
    return { problem: 'the signature does not cover the message' };
  return {
    id,
    issuer: texts.Issuer?.trim(),
    nameId: texts.NameID?.trim(),
    nameIdPolicyFormat,
    acsUrl: attr(read.root, 'AssertionConsumerServiceURL'),
    acsIndex: attr(read.root, 'AssertionConsumerServiceIndex'),
    protocolBinding: attr(read.root, 'ProtocolBinding'),
    signed: signatures > 0,
  };
}

/** What the platform reads of a message itself (samlify verifies the signatures). */
export interface SamlMessageFacts {
  id: string;
  issuer?: string;
  nameId?: string;
  nameIdPolicyFormat?: string;
  acsUrl?: string;
  acsIndex?: string;
  protocolBinding?: string;
  /** An enveloped XML signature is present (HTTP-POST binding). */
  signed: boolean;
}
