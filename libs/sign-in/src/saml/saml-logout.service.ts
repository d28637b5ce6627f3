import { Injectable } from '@nestjs/common';
import { OidcProviderHost } from '../oidc/oidc-provider.host';
import { SamlCredentials } from './saml-credentials';
import { responseSp, signingIdp } from './saml-entities';
import { relayState, SamlSsoService, type SamlStep, type SsoInput } from './saml-sso.service';

/**
 * Single logout started by the app (SP-initiated): its LogoutRequest is read and checked like an
 * AuthnRequest (shape, Issuer, signature), and a signed LogoutResponse (Success, InResponseTo) is
 * posted to the app's `sign_out_url`. The platform keeps no session that would sign the person in
 * again without the portal, so there is nothing else to end here; other apps are not told.
 */
@Injectable()
export class SamlLogoutService {
  constructor(
    private readonly host: OidcProviderHost,
    private readonly credentials: SamlCredentials,
    private readonly sso: SamlSsoService,
  ) {}

  async logout(tenantId: string, input: SsoInput): Promise<SamlStep> {
    const read = await this.sso.read(tenantId, input, 'LogoutRequest');
    if ('kind' in read) return read;
    const refused = await this.sso.checkSignature(tenantId, read.app, read.facts, read.input, 'logout');
    if (refused) return refused;
    const idp = signingIdp(this.host.issuer, tenantId, await this.credentials.current(), false);
    const relay = relayState(input.params.RelayState, read.app);
    const response = idp.createLogoutResponse(
      responseSp(read.app.saml),
      { extract: { request: { id: read.facts.id } } },
      'post',
      { relayState: relay },
    );
    return {
      kind: 'post',
      action: read.app.saml.sign_out_url,
      fields: { SAMLResponse: response.context, ...(relay ? { RelayState: relay } : {}) },
    };
  }
}
