import { createCipheriv, createDecipheriv, createHash, randomBytes } from 'node:crypto';

/**
 * Encrypts private keys at rest with AES-256-GCM under a key taken from configuration
 * (`KEY_ENCRYPTION_KEY`), so a database dump alone cannot sign tokens.
 */
export class KeyEncryption {
  private readonly key: Buffer;

  constructor(secret: string) {
    if (secret.length < 32) throw new Error('KEY_ENCRYPTION_KEY must be at least 32 characters');
    this.key = createHash('sha256').update(secret, 'utf8').digest();
  }

  encrypt(plain: string): string {
    const iv = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', this.key, iv);
    const body = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
    return ['v1', iv.toString('base64url'), cipher.getAuthTag().toString('base64url'), body.toString('base64url')].join(
      '.',
    );
  }

  decrypt(sealed: string): string {
    const [version, iv, tag, body] = sealed.split('.');
    if (version !== 'v1' || !iv || !tag || !body) throw new Error('Unrecognised encrypted key format');
    const decipher = createDecipheriv('aes-256-gcm', this.key, Buffer.from(iv, 'base64url'));
    decipher.setAuthTag(Buffer.from(tag, 'base64url'));
    return Buffer.concat([decipher.update(Buffer.from(body, 'base64url')), decipher.final()]).toString('utf8');
  }
}
