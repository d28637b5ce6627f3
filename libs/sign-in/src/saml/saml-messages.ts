import { inflateRawSync } from 'node:zlib';
import { MAX_SAML_MESSAGE_BYTES } from './saml-xml-guard';

/** The message of an HTTP-Redirect binding (base64 of raw DEFLATE), inflated no further than the size limit (no deflate bombs). */
export function redirectMessage(encoded: unknown): string | undefined {
  if (typeof encoded !== 'string' || encoded.length > MAX_SAML_MESSAGE_BYTES) return undefined;
  try {
    return inflateRawSync(Buffer.from(encoded, 'base64'), { maxOutputLength: MAX_SAML_MESSAGE_BYTES }).toString('utf8');
  } catch {
    return undefined;
  }
}

/**
 * The message of an HTTP-POST binding: base64 of the XML, or (as some service providers send it,
 * node-saml among them) of its raw DEFLATE, inflated within the size limit.
 */
export function postMessage(encoded: unknown): string | undefined {
  if (typeof encoded !== 'string' || encoded.length > (MAX_SAML_MESSAGE_BYTES * 4) / 3 + 4) return undefined;
  const bytes = Buffer.from(encoded, 'base64');
  const text = bytes.toString('utf8');
  if (text.trimStart().startsWith('<')) return text;
  try {
    return inflateRawSync(bytes, { maxOutputLength: MAX_SAML_MESSAGE_BYTES }).toString('utf8');
  } catch {
    return undefined;
  }
}

/**
 * The signed octet string of an HTTP-Redirect binding (SAML bindings §3.4.4.1): the parameters
 * exactly as they were URL-encoded in the request, in the order the binding fixes.
 */
export function redirectOctetString(rawQuery: string, messageParam: 'SAMLRequest' | 'SAMLResponse'): string {
  const raw = new Map<string, string>();
  for (const pair of rawQuery.split('&')) {
    const i = pair.indexOf('=');
    if (i > 0 && !raw.has(pair.slice(0, i))) raw.set(pair.slice(0, i), pair.slice(i + 1));
  }
  return [messageParam, 'RelayState', 'SigAlg']
    .filter((k) => raw.has(k))
    .map((k) => `${k}=${raw.get(k)}`)
    .join('&');
}
