import { LRUCache } from 'lru-cache';
import type { DeliveryToSend } from '@edu/persistence';
import type { KeyEncryption } from '@edu/signing';

type SealedSecrets = Pick<DeliveryToSend, 'signing_secret' | 'previous_signing_secret' | 'previous_secret_expires_at'>;

/**
 * The Standard Webhooks secrets a delivery is signed with: the webhook's secret and, while a
 * rotation's overlap lasts, the previous one. Secrets are stored sealed (KEY_ENCRYPTION_KEY);
 * opened ones are kept per process, so a busy webhook costs one decryption, not one per attempt.
 */
export class WebhookSecrets {
  private readonly opened = new LRUCache<string, string>({ max: 10_000 });

  constructor(private readonly encryption: KeyEncryption) {}

  /** Newest first; empty for a webhook without a secret (registered before secrets existed). */
  of(d: SealedSecrets, now = Date.now()): string[] {
    const secrets: string[] = [];
    if (d.signing_secret) secrets.push(this.open(d.signing_secret));
    const until = d.previous_secret_expires_at;
    if (d.previous_signing_secret && until && new Date(until).getTime() > now)
      secrets.push(this.open(d.previous_signing_secret));
    return secrets;
  }

  private open(sealed: string): string {
    let plain = this.opened.get(sealed);
    if (plain === undefined) {
      plain = this.encryption.decrypt(sealed);
      this.opened.set(sealed, plain);
    }
    return plain;
  }
}
