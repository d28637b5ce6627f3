import { Injectable } from '@nestjs/common';
import { generateWebhookSecret, KeyEncryption } from '@edu/signing';
import { AlertsEnv } from '../config/alerts.env';

/** A new Standard Webhooks secret: the text shown to the partner once, and its sealed form to store. */
export interface IssuedSecret {
  secret: string;
  sealed: string;
}

/** Default and longest overlap of a rotation: the old secret keeps signing that long (as Svix: 24 h, up to 7 days). */
export const DEFAULT_SECRET_OVERLAP_SECONDS = 86_400;
export const MAX_SECRET_OVERLAP_SECONDS = 7 * 86_400;

/**
 * Makes webhooks' Standard Webhooks secrets (`whsec_...`) and seals them with KEY_ENCRYPTION_KEY
 * (AES-256-GCM, as the signing keys are), so a database dump alone cannot sign deliveries; the
 * dispatcher opens them with the same key.
 */
@Injectable()
export class WebhookSecretIssuer {
  private readonly encryption: KeyEncryption;

  constructor(env: AlertsEnv) {
    this.encryption = new KeyEncryption(env.KEY_ENCRYPTION_KEY);
  }

  issue(): IssuedSecret {
    const secret = generateWebhookSecret();
    return { secret, sealed: this.encryption.encrypt(secret) };
  }
}
