import { Injectable } from '@nestjs/common';
import { privateKeyPem, SigningKeyStore } from '@edu/signing';

export interface SamlSigningCredentials {
  kid: string;
  privateKeyPem: string;
  /** The active key's certificate (base64 DER), in the signatures' KeyInfo. */
  certificate: string;
  /** Every certificate relying parties may meet, active first: a staged or retired one is published beside it during a rotation. */
  published: string[];
}

const RELOAD_MS = 60_000;

const certificateOf = (jwk: { x5c?: string[] }): string | undefined => jwk.x5c?.[0];

/**
 * The SAML signing key (`saml` use of the signing keys: RSA, encrypted at rest, staged rotation)
 * and the certificates the metadata publishes. Reloaded within a minute of a rotation.
 */
@Injectable()
export class SamlCredentials {
  private cached?: { at: number; value: Promise<SamlSigningCredentials> };

  constructor(private readonly keys: SigningKeyStore) {}

  current(): Promise<SamlSigningCredentials> {
    if (!this.cached || Date.now() - this.cached.at > RELOAD_MS) {
      const value = this.load();
      value.catch(() => (this.cached = undefined));
      this.cached = { at: Date.now(), value };
    }
    return this.cached.value;
  }

  private async load(): Promise<SamlSigningCredentials> {
    const active = await this.keys.activeKeyMaterial('saml');
    const certificate = certificateOf(active.publicJwk);
    if (!certificate) throw new Error(`SAML key ${active.kid} has no certificate`);
    const others = (await this.keys.publishedKeysOf('saml'))
      .filter((k) => k.kid !== active.kid)
      .map((k) => certificateOf(k.publicJwk));
    return {
      kid: active.kid,
      privateKeyPem: privateKeyPem(active.privateJwk as Record<string, unknown>),
      certificate,
      published: [certificate, ...others.filter((c): c is string => Boolean(c))],
    };
  }
}
