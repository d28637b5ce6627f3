import { Injectable } from '@nestjs/common';
import { RefusalReason } from '../log/refusal-reason';
import { SignInSharing } from '../accounts/sign-in-sharing';
import { OidcInteractions } from '../oidc/oidc-interactions';
import { OidcProviderHost } from '../oidc/oidc-provider.host';
import { SignInRepository } from '../sign-in.repository';
import { samlAttributes } from './saml-attributes';
import { SamlApps, type SamlApp } from './saml-apps';
import { SamlCredentials } from './saml-credentials';
import { NAME_ID_FORMAT, persistentNameId } from './saml-name-id';
import { SamlRequests, type PendingSamlRequest } from './saml-requests';
import { loginResponse } from './saml-response';
import { SamlSsoService, samlProblem, type SamlStep } from './saml-sso.service';

const EXPIRED = samlProblem(
  400,
  'This sign-in has expired',
  'This sign-in expired, was already used, or was started in another browser. Go back to the app and sign in again.',
  RefusalReason.SamlStateMismatch,
);
const NOT_AVAILABLE = samlProblem(
  400,
  'Sign-in not available',
  'This sign-in is no longer available at your school.',
  RefusalReason.ConfigurationChanged,
);

/**
 * The end of a SAML sign-in: the authorization the person completed at the portal comes back
 * with a code, which is read and consumed here (never sent to the token endpoint); the grant
 * names the tenant and the person, and the app receives a signed SAML response by HTTP-POST.
 */
@Injectable()
export class SamlCompletionService {
  constructor(
    private readonly host: OidcProviderHost,
    private readonly oidc: OidcInteractions,
    private readonly repo: SignInRepository,
    private readonly apps: SamlApps,
    private readonly credentials: SamlCredentials,
    private readonly requests: SamlRequests,
    private readonly sso: SamlSsoService,
    private readonly sharing: SignInSharing,
  ) {}

  async complete(q: { code?: string; state?: string; error?: string }, cookie: string | undefined): Promise<SamlStep> {
    const pending = q.state ? await this.requests.take(q.state, cookie) : undefined;
    if (!pending) return this.sso.refuse(undefined, undefined, EXPIRED);
    if (q.error || !q.code)
      return this.sso.refuse(
        pending.tenantId,
        pending.appId,
        samlProblem(
          403,
          'Sign-in not completed',
          'The sign-in was not completed. Go back to the app and try again.',
          notCompleted(q.error),
        ),
        q.error,
      );
    const grant = await this.consumeCode(q.code);
    if (!grant || grant.appId !== pending.appId) return this.sso.refuse(pending.tenantId, pending.appId, EXPIRED);
    // The person may have chosen another school at the portal: its identity provider is not the one the app asked.
    if (grant.tenantId !== pending.tenantId) {
      return this.sso.refuse(
        pending.tenantId,
        pending.appId,
        samlProblem(
          403,
          'Wrong school',
          'You signed in at another school than the one this app sent you to. Go back to the app and sign in again.',
          RefusalReason.SamlTenantMismatch,
        ),
      );
    }
    const app = await this.apps.byId(pending.appId);
    if (!app) return this.sso.refuse(pending.tenantId, undefined, NOT_AVAILABLE);
    const response = await this.response(app, pending, grant.userId);
    if (!response) return this.sso.refuse(pending.tenantId, app.id, NOT_AVAILABLE);
    const relay = pending.relayState;
    return {
      kind: 'post',
      action: app.saml.reply_url,
      fields: { SAMLResponse: response, ...(relay ? { RelayState: relay } : {}) },
    };
  }

  /** The grant of a live code issued for /saml/complete, the code consumed (a replay finds it used). */
  private async consumeCode(value: string) {
    const grantId = await this.oidc.consumeCode(value, this.sso.completeUrl());
    return grantId ? this.repo.grant(grantId) : undefined;
  }

  /**
   * The signed response for the person as the tenant sees them now (they may have left, the app
   * been withdrawn, or the school stopped sharing them with it), less the attributes the sharing
   * withholds. With contact withheld the NameID is never the e-mail address: the app gets the
   * persistent NameID, as it does when the school has no address for the person.
   */
  async response(
    app: SamlApp,
    pending: Pick<PendingSamlRequest, 'tenantId' | 'requestId' | 'nameIdFormat'>,
    userId: string,
  ): Promise<string | undefined> {
    const found = await this.person(app, pending.tenantId, userId);
    if (!found) return undefined;
    const { member, tenant, withheld } = found;
    const subject = persistentNameId(tenant.id, app.id, userId);
    const constituencies = (await this.repo.constituencyNames(tenant.id, member.constituencies)).map((c) => c.name);
    const person = {
      email: member.email,
      name: member.name,
      nickname: member.nickname,
      picture: member.picture,
      constituencies,
      tenantId: tenant.id,
      tenantName: tenant.name,
      subject,
    };
    const byEmail = pending.nameIdFormat === NAME_ID_FORMAT.email && member.email !== '' && !withheld.has('email');
    return loginResponse({
      issuer: this.host.issuer,
      tenantId: tenant.id,
      app: app.saml,
      credentials: await this.credentials.current(),
      inResponseTo: pending.requestId,
      nameId: byEmail ? member.email : subject,
      nameIdFormat: byEmail ? NAME_ID_FORMAT.email : NAME_ID_FORMAT.persistent,
      sessionIndex: `_${subject}`,
      attributes: samlAttributes(app.saml.claims, person, withheld),
    });
  }

  /** The member and tenant, with what the deployment's sharing withholds; undefined unless the app may see them now. */
  private async person(app: SamlApp, tenantId: string, userId: string) {
    const [member, tenant, deploymentId] = await Promise.all([
      this.repo.memberById(tenantId, userId),
      this.repo.tenant(tenantId),
      this.repo.deploymentId(app.id, tenantId),
    ]);
    if (!member || !tenant || !deploymentId) return undefined;
    const seen = await this.sharing.person(tenant.id, deploymentId, member.email);
    return seen.shared ? { member, tenant, withheld: seen.withheld } : undefined;
  }
}

/** Why the authorization came back without a code: the person went back, another error (named in the detail), or none. */
function notCompleted(error: string | undefined): RefusalReason {
  if (error === undefined) return RefusalReason.NoCode;
  return error === 'access_denied' ? RefusalReason.AccessDenied : RefusalReason.AuthorizationFailed;
}
