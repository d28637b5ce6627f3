import { createPrivateKey, createPublicKey, type KeyObject } from 'node:crypto';
import forge from 'node-forge';

/** How long the certificate around a SAML key is valid; SAML relying parties pin it, they do not check a chain. */
const CERTIFICATE_YEARS = 10;

/**
 * A self-signed X.509 certificate (RSA-SHA256, DER, base64) around a key pair. SAML metadata
 * carries keys only as certificates; service providers pin the certificate rather than trust a
 * chain, so a self-signed one is what SAML identity providers publish.
 */
export function selfSignedCertificate(privateKey: KeyObject, commonName: string, now = new Date()): string {
  const forgePrivate = forge.pki.privateKeyFromPem(privateKey.export({ type: 'pkcs1', format: 'pem' }).toString());
  const publicPem = createPublicKey(privateKey).export({ type: 'spki', format: 'pem' }).toString();
  const cert = forge.pki.createCertificate();
  cert.publicKey = forge.pki.publicKeyFromPem(publicPem);
  // A positive 16-byte serial: the leading nibble keeps the DER integer from reading as negative.
  cert.serialNumber = `1${forge.util.bytesToHex(forge.random.getBytesSync(15))}`;
  cert.validity.notBefore = new Date(now.getTime() - 60_000);
  cert.validity.notAfter = new Date(now.getTime());
  cert.validity.notAfter.setUTCFullYear(now.getUTCFullYear() + CERTIFICATE_YEARS);
  const subject = [{ name: 'commonName', value: commonName }];
  cert.setSubject(subject);
  cert.setIssuer(subject);
  cert.sign(forgePrivate, forge.md.sha256.create());
  return forge.util.encode64(forge.asn1.toDer(forge.pki.certificateToAsn1(cert)).getBytes());
}

/** The PEM of a private JWK, as XML signature libraries take it. */
export function privateKeyPem(jwk: Record<string, unknown>): string {
  return createPrivateKey({ key: jwk as never, format: 'jwk' })
    .export({ type: 'pkcs8', format: 'pem' })
    .toString();
}

/** A base64 DER certificate as PEM. */
export function certificatePem(derBase64: string): string {
  return `-----BEGIN CERTIFICATE-----\n${derBase64.match(/.{1,64}/g)?.join('\n') ?? ''}\n-----END CERTIFICATE-----\n`;
}
