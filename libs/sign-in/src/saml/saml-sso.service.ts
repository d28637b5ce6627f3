import { createHash, randomBytes } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { isUuid } from '@edu/domain';
import { SignInEnv } from '../sign-in.env';
import { RefusalReason } from '../log/refusal-reason';
import { SignInOutcomes } from '../log/sign-in-outcomes';
import { OidcProviderHost } from '../oidc/oidc-provider.host';
import { SignInRepository } from '../sign-in.repository';
import { SamlApps, type SamlApp } from './saml-apps';
import { metadataSp, signingIdp, type SAML_BINDINGS } from './saml-entities';
import { SamlCredentials } from './saml-credentials';
import { SAML_COMPLETE_PATH } from '../oidc/client-adapter';
import { postMessage, redirectMessage, redirectOctetString } from './saml-messages';
import { NAME_ID_FORMAT } from './saml-name-id';
import { SamlRequests } from './saml-requests';
import { SamlSpMetadata } from './saml-sp-metadata';
import { readSamlMessage, type SamlMessageFacts } from './saml-xml-guard';

export type SamlBinding = keyof typeof SAML_BINDINGS;

/** What the SAML endpoints answer: a redirect (with the binding cookie), a form posted to the app, or a refusal page. */
export type SamlStep =
  | { kind: 'redirect'; location: string; cookie?: { value: string; maxAgeMs: number } }
  | { kind: 'post'; action: string; fields: Record<string, string> }
  | { kind: 'problem'; status: number; title: string; message: string; reason: RefusalReason };

export const samlProblem = (status: number, title: string, message: string, reason: RefusalReason): SamlStep => ({
  kind: 'problem',
  status,
  title,
  message,
  reason,
});
const BAD_REQUEST = (reason: RefusalReason) =>
  samlProblem(
    400,
    'Sign-in request refused',
    'The app sent a sign-in request this service does not accept. Go back to the app and try again, or tell the app’s support.',
    reason,
  );

export interface SsoInput {
  binding: SamlBinding;
  /** Query (HTTP-Redirect) or form body (HTTP-POST). */
  params: Record<string, unknown>;
  rawQuery: string;
}

/**
 * SP-initiated SSO: reads and checks a service provider's AuthnRequest, then sends the person
 * into the ordinary sign-in (the OpenID Connect authorization of the app, with the portal, the
 * upstream provider, mapping, constituency rules and JIT), coming back to `/saml/complete`.
 */
@Injectable()
export class SamlSsoService {
  constructor(
    private readonly env: SignInEnv,
    private readonly host: OidcProviderHost,
    private readonly repo: SignInRepository,
    private readonly apps: SamlApps,
    private readonly credentials: SamlCredentials,
    private readonly requests: SamlRequests,
    private readonly outcomes: SignInOutcomes,
    private readonly spMetadata: SamlSpMetadata,
  ) {}

  async start(tenantId: string, input: SsoInput): Promise<SamlStep> {
    const read = await this.read(tenantId, input, 'AuthnRequest');
    if ('kind' in read) return read;
    const checked = await this.checkRequest(tenantId, read.app, read.facts, read.input);
    if (checked) return checked;
    return this.toSignIn(tenantId, read.app, read.facts, relayState(input.params.RelayState, read.app));
  }

  /** A service provider's request read and checked for shape (saml-xml-guard), with the app its Issuer names at the tenant. */
  async read(
    tenantId: string,
    input: SsoInput,
    kind: 'AuthnRequest' | 'LogoutRequest',
  ): Promise<{ app: SamlApp; facts: SamlMessageFacts; input: SsoInput } | SamlStep> {
    const tenant = await this.repo.tenant(tenantId);
    if (!tenant) return this.unknownSchool(tenantId);
    const xml =
      input.binding === 'redirect' ? redirectMessage(input.params.SAMLRequest) : postMessage(input.params.SAMLRequest);
    if (!xml)
      return this.refuse(tenantId, undefined, BAD_REQUEST(RefusalReason.SamlRequestInvalid), 'no readable SAMLRequest');
    const facts = readSamlMessage(xml, kind);
    if ('problem' in facts)
      return this.refuse(tenantId, undefined, BAD_REQUEST(RefusalReason.SamlRequestInvalid), facts.problem);
    const app = facts.issuer ? await this.apps.byEntityId(tenantId, facts.issuer) : null;
    if (!app)
      return this.refuse(
        tenantId,
        undefined,
        samlProblem(
          400,
          'App not available at this school',
          'The app that sent you here is not available at this school.',
          RefusalReason.SamlUnknownApp,
        ),
        facts.issuer,
      );
    // samlify reads the POST binding as base64 of the XML: hand it the message as read.
    const params =
      input.binding === 'post'
        ? { ...input.params, SAMLRequest: Buffer.from(xml, 'utf8').toString('base64') }
        : input.params;
    return { app, facts, input: { ...input, params } };
  }

  /** The AuthnRequest's destination, binding and signature; undefined when it may go on. */
  private async checkRequest(
    tenantId: string,
    app: SamlApp,
    facts: SamlMessageFacts,
    input: SsoInput,
  ): Promise<SamlStep | undefined> {
    if (facts.acsUrl !== undefined && facts.acsUrl !== app.saml.reply_url)
      return this.refuse(tenantId, app.id, BAD_REQUEST(RefusalReason.SamlAcsMismatch), facts.acsUrl);
    if (
      facts.protocolBinding !== undefined &&
      facts.protocolBinding !== 'urn:oasis:names:tc:SAML:2.0:bindings:HTTP-POST'
    ) {
      return this.refuse(tenantId, app.id, BAD_REQUEST(RefusalReason.SamlBindingUnsupported), facts.protocolBinding);
    }
    return this.checkSignature(tenantId, app, facts, input, 'login');
  }

  /**
   * The request's signature: required when the app's metadata (from its metadata_url, else
   * metadata_xml) says it signs its requests, and verified with the metadata's certificate whenever
   * one is present; undefined when it may go on.
   */
  async checkSignature(
    tenantId: string,
    app: SamlApp,
    facts: SamlMessageFacts,
    input: SsoInput,
    kind: 'login' | 'logout',
  ): Promise<SamlStep | undefined> {
    const metadata = await this.spMetadata.forApp(app);
    if ('blocked' in metadata)
      return this.refuse(tenantId, app.id, BAD_REQUEST(RefusalReason.SamlMetadataUrlBlocked), metadata.blocked);
    let sp: ReturnType<typeof metadataSp>;
    try {
      sp = metadataSp(metadata.xml);
    } catch {
      return this.refuse(tenantId, app.id, BAD_REQUEST(RefusalReason.SamlMetadataInvalid));
    }
    const required = sp.entityMeta.isAuthnRequestSigned?.() === true;
    const present = input.binding === 'redirect' ? typeof input.params.Signature === 'string' : facts.signed;
    if (required && !present) return this.refuse(tenantId, app.id, BAD_REQUEST(RefusalReason.SamlRequestUnsigned));
    const idp = signingIdp(this.host.issuer, tenantId, await this.credentials.current(), present);
    const request = {
      query: input.params,
      body: input.params,
      octetString: redirectOctetString(input.rawQuery, 'SAMLRequest'),
    };
    try {
      await (kind === 'login'
        ? idp.parseLoginRequest(sp, input.binding, request)
        : idp.parseLogoutRequest(sp, input.binding, request));
    } catch (err) {
      return this.refuse(
        tenantId,
        app.id,
        BAD_REQUEST(present ? RefusalReason.SamlSignatureInvalid : RefusalReason.SamlRequestInvalid),
        err instanceof Error ? err.message : String(err),
      );
    }
    return undefined;
  }

  /**
   * IdP-initiated SSO (the school's link to the app): the ordinary sign-in at the tenant, then an
   * unsolicited response (no InResponseTo) posted to the app's reply_url with its relay_state.
   */
  async startUnsolicited(tenantId: string, appId: string): Promise<SamlStep> {
    const tenant = await this.repo.tenant(tenantId);
    if (!tenant) return this.unknownSchool(tenantId);
    const app = isUuid(appId) ? await this.apps.byId(appId) : null;
    if (!app || !(await this.repo.isDeployed(app.id, tenantId))) {
      return this.refuse(
        tenantId,
        undefined,
        samlProblem(
          404,
          'App not available at this school',
          'This app is not available at this school.',
          RefusalReason.SamlUnknownApp,
        ),
        appId,
      );
    }
    return this.toSignIn(tenantId, app, undefined, app.saml.relay_state ?? undefined);
  }

  /** Parks the request and starts the app's authorization with the tenant fixed; it comes back to /saml/complete. */
  private async toSignIn(
    tenantId: string,
    app: SamlApp,
    facts: SamlMessageFacts | undefined,
    relay: string | undefined,
  ): Promise<SamlStep> {
    const ttl = this.env.SIGNIN_INTERACTION_TTL_SECONDS;
    const nameIdFormat =
      facts?.nameIdPolicyFormat === NAME_ID_FORMAT.email ? NAME_ID_FORMAT.email : NAME_ID_FORMAT.persistent;
    const { state, cookie } = await this.requests.save(
      { tenantId, appId: app.id, requestId: facts?.id, relayState: relay, nameIdFormat },
      ttl,
    );
    return {
      kind: 'redirect',
      location: this.authorizationUrl(app.clientId, tenantId, state),
      cookie: { value: cookie, maxAgeMs: ttl * 1000 },
    };
  }

  /**
   * The app's authorization request at the OpenID Connect provider. The code it ends with is
   * read and consumed by /saml/complete on the server, never exchanged at the token endpoint;
   * the PKCE challenge (which the provider requires of every client) is therefore of a verifier nobody keeps.
   */
  authorizationUrl(clientId: string, tenantId: string, state: string): string {
    const challenge = createHash('sha256').update(randomBytes(32).toString('base64url')).digest('base64url');
    const q = new URLSearchParams({
      client_id: clientId,
      response_type: 'code',
      scope: 'openid',
      redirect_uri: this.completeUrl(),
      state,
      tenant: tenantId,
      code_challenge: challenge,
      code_challenge_method: 'S256',
    });
    return `${this.host.issuer}/oidc/auth?${q}`;
  }

  completeUrl(): string {
    return `${this.host.issuer}${SAML_COMPLETE_PATH}`;
  }

  /** An address naming no school: there is no tenant whose log could have it, so the service log only. */
  private unknownSchool(tenantId: string): Promise<SamlStep> {
    const step = samlProblem(
      404,
      'Unknown school',
      'There is no sign-in service at this address.',
      RefusalReason.UnknownTenant,
    );
    return this.refuse(undefined, undefined, step, `no tenant ${tenantId.slice(0, 64)}`);
  }

  /** Logs a refusal and records it in the tenant's sign-in log. */
  async refuse(
    tenantId: string | undefined,
    appId: string | undefined,
    step: SamlStep,
    detail?: string,
  ): Promise<SamlStep> {
    if (step.kind !== 'problem') return step;
    await this.outcomes.refused({ protocol: 'saml', reason: step.reason, tenantId, appId, detail });
    return step;
  }
}

/** The RelayState to return: the one the app sent, else the app's configured `relay_state`. */
export function relayState(sent: unknown, app: SamlApp): string | undefined {
  if (typeof sent === 'string' && sent.length > 0 && sent.length <= 1024) return sent;
  return app.saml.relay_state ?? undefined;
}
