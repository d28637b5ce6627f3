import { Injectable, Logger, type OnApplicationBootstrap } from '@nestjs/common';
import { SigningKeyStore } from '@edu/signing';

/**
 * Makes sure both signing keys exist as soon as the identity service is up. The webhook
 * dispatcher never creates the webhook key itself (in a regional database its table is a
 * replica), so it must not wait for the first JWKS request to bring the key into being.
 */
@Injectable()
export class SigningKeysBootstrap implements OnApplicationBootstrap {
  private readonly logger = new Logger('SigningKeys');

  constructor(private readonly keys: SigningKeyStore) {}

  async onApplicationBootstrap(): Promise<void> {
    try {
      await Promise.all([
        this.keys.activeKey('access-token'),
        this.keys.activeKey('webhook'),
        this.keys.activeKey('oidc'),
      ]);
    } catch (err) {
      // The database may be down at boot: the first JWKS request creates the keys instead.
      this.logger.warn({ err }, 'Signing keys not ensured at boot; the JWKS endpoint will create them');
    }
  }
}
