import type { Adapter, AdapterPayload } from 'oidc-provider';
import type { SignInRepository } from '../sign-in.repository';

/** Where the authorization of a SAML sign-in comes back to (the only redirect URI of a `saml` app's client). */
export const SAML_COMPLETE_PATH = '/saml/complete';

/**
 * oidc-provider's clients are the apps with `auth_type: oauth2` (design §10): their client id,
 * their stored secret hash (checked by the provider host's `compareClientSecret`) and exactly
 * their `redirect_uris`, also accepted as post-logout redirect URIs. Read-only.
 * A `saml` app is a client whose only redirect URI is the SAML identity provider's completion
 * (`samlCompleteUrl`), which reads the code itself: the person signs in through the same portal.
 */
export class AppClientAdapter implements Adapter {
  constructor(
    private readonly repo: SignInRepository,
    private readonly samlCompleteUrl: string,
  ) {}

  async find(clientId: string): Promise<AdapterPayload | undefined> {
    const app = await this.repo.appByClientId(clientId);
    if (app?.authType === 'saml') {
      const only = {
        redirect_uris: [this.samlCompleteUrl],
        post_logout_redirect_uris: [],
        grant_types: ['authorization_code'],
      };
      return {
        client_id: app.clientId,
        client_secret: app.clientSecretHash,
        client_name: app.name,
        ...only,
        response_types: ['code'],
        token_endpoint_auth_method: 'client_secret_basic',
        'urn:edu:app_id': app.id,
      } as AdapterPayload;
    }
    if (!app || app.redirectUris.length === 0) return undefined;
    return {
      client_id: app.clientId,
      client_secret: app.clientSecretHash,
      client_name: app.name,
      redirect_uris: app.redirectUris,
      post_logout_redirect_uris: app.redirectUris,
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
      token_endpoint_auth_method: 'client_secret_basic',
      // Read back by the portal: which app is signing people in.
      'urn:edu:app_id': app.id,
    } as AdapterPayload;
  }

  async upsert(): Promise<void> {
    throw new Error('apps are written through the Identity API');
  }
  async findByUid(): Promise<undefined> {
    return undefined;
  }
  async findByUserCode(): Promise<undefined> {
    return undefined;
  }
  async consume(): Promise<void> {}
  async destroy(): Promise<void> {}
  async revokeByGrantId(): Promise<void> {}
}
