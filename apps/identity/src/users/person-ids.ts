import { createHmac, hkdfSync } from 'node:crypto';

/**
 * The user id a person gets when no tenant has them yet: a keyed hash of the e-mail address,
 * shaped as a random (version 4) uuid.
 *
 * A person has one id whichever tenants add them, so a tenant adding someone another tenant
 * already has gets the existing id. If a brand-new person got a random id instead, a tenant could
 * add an address, remove it and add it again: a new id would mean "nobody else has this person",
 * the same id "another tenant has them". With the id fixed by the address, both cases answer the
 * same id every time, and the key keeps ids from being computed from addresses outside the service.
 */
export class PersonIds {
  private constructor(private readonly key: Buffer) {}

  /** The key is derived from `secret` (KEY_ENCRYPTION_KEY) under its own label, never used as is. */
  static fromSecret(secret: string): PersonIds {
    return new PersonIds(Buffer.from(hkdfSync('sha256', secret, Buffer.alloc(0), 'identity user ids v1', 32)));
  }

  /** `email` must already be normalized (trimmed, lower-case). */
  forEmail(email: string): string {
    const b = createHmac('sha256', this.key).update(email, 'utf8').digest().subarray(0, 16);
    b[6] = (b[6] & 0x0f) | 0x40; // version 4
    b[8] = (b[8] & 0x3f) | 0x80; // RFC 9562 variant
    const hex = b.toString('hex');
    return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
  }
}
