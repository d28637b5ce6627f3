import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { exportJWK, generateKeyPair, SignJWT, type CryptoKey, type JWK } from 'jose';

const LIS = 'http://purl.imsglobal.org/vocab/lis/v2';
const CLAIM = 'https://purl.imsglobal.org/spec/lti/claim';
export const LTI_ROLES = {
  learner: `${LIS}/membership#Learner`,
  instructor: `${LIS}/membership#Instructor`,
  mentor: `${LIS}/membership#Mentor`,
};

/** Who the LMS launches next, and into what. */
export interface LmsLaunch {
  sub: string;
  email?: string;
  name?: string;
  roles?: string[];
  targetLinkUri: string;
  /** Seconds the id_token lives (default 300). */
  lifetime?: number;
}

/** Rewrites the id_token's claims or signs it otherwise (attack tests). */
export type LaunchTamper = (
  payload: Record<string, unknown>,
  sign: (payload: Record<string, unknown>) => Promise<string>,
) => Promise<string>;

/** The auto-posting form an LMS answers its authentication request with. */
export interface LaunchForm {
  action: string;
  fields: Record<string, string>;
}

/**
 * A learning platform (LTI 1.3 platform) for tests over real HTTP: its own RS256 key pair and JWKS
 * (`/jwks`), and an authentication endpoint (`/auth`) that answers the tool's authentication
 * request with the form post of a signed id_token for `next`, as an LMS does after its own login.
 */
export class TestLms {
  next?: LmsLaunch;
  tamper?: LaunchTamper;
  /** The authentication requests received (their query parameters). */
  readonly requests: URLSearchParams[] = [];
  /** How often the JWKS was read. */
  jwksRequests = 0;

  private constructor(
    readonly issuer: string,
    readonly clientId: string,
    readonly deploymentId: string,
    private readonly server: Server,
    private readonly key: { privateKey: CryptoKey; jwk: JWK },
  ) {}

  static async start(o: { clientId: string; deploymentId: string }): Promise<TestLms> {
    const server = createServer();
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const { privateKey } = await generateKeyPair('RS256', { extractable: true });
    const { d: _d, p: _p, q: _q, dp: _dp, dq: _dq, qi: _qi, ...pub } = await exportJWK(privateKey);
    const lms = new TestLms(issuer, o.clientId, o.deploymentId, server, {
      privateKey,
      jwk: { ...pub, kid: 'lms-1', alg: 'RS256', use: 'sig' },
    });
    server.on('request', (req, res) => void lms.handle(req, res));
    return lms;
  }

  /** The settings of the school's `lti1.3` provider for this platform (`extra` overrides). */
  settings(extra: Record<string, unknown> = {}): Record<string, unknown> {
    return {
      client_id: this.clientId,
      oidc_authentication_url: `${this.issuer}/auth`,
      oauth_access_token_url: `${this.issuer}/token`,
      jwks_url: `${this.issuer}/jwks`,
      issuer: this.issuer,
      validate_lti_tokens_at_oidc_login: false,
      deployment_id: this.deploymentId,
      ...extra,
    };
  }

  /** The tool's login initiation URL as the LMS sends the browser there (`extra` overrides or adds parameters). */
  initiation(loginUrl: string, launch: LmsLaunch, extra: Record<string, string> = {}): string {
    this.next = launch;
    const q = new URLSearchParams({
      iss: this.issuer,
      login_hint: launch.sub,
      target_link_uri: launch.targetLinkUri,
      lti_message_hint: 'resource-link-1',
      client_id: this.clientId,
      lti_deployment_id: this.deploymentId,
      ...extra,
    });
    return `${loginUrl}?${q}`;
  }

  /** Signs with the platform's key (the one its JWKS publishes). */
  sign(payload: Record<string, unknown>): Promise<string> {
    return new SignJWT(payload)
      .setProtectedHeader({ alg: 'RS256', kid: 'lms-1', typ: 'JWT' })
      .sign(this.key.privateKey);
  }

  /** The claims of a resource link launch of `l` for `nonce`. */
  claims(l: LmsLaunch, nonce: string): Record<string, unknown> {
    const now = Math.floor(Date.now() / 1000);
    return {
      iss: this.issuer,
      aud: this.clientId,
      azp: this.clientId,
      sub: l.sub,
      nonce,
      iat: now,
      exp: now + (l.lifetime ?? 300),
      ...(l.email ? { email: l.email } : {}),
      ...(l.name ? { name: l.name } : {}),
      [`${CLAIM}/message_type`]: 'LtiResourceLinkRequest',
      [`${CLAIM}/version`]: '1.3.0',
      [`${CLAIM}/deployment_id`]: this.deploymentId,
      [`${CLAIM}/target_link_uri`]: l.targetLinkUri,
      [`${CLAIM}/resource_link`]: { id: 'resource-link-1', title: 'Fractions practice' },
      [`${CLAIM}/roles`]: l.roles ?? [LTI_ROLES.learner],
    };
  }

  async stop(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', this.issuer);
    if (url.pathname === '/jwks') this.jwksRequests++;
    if (url.pathname === '/jwks')
      return void res
        .writeHead(200, { 'content-type': 'application/json' })
        .end(JSON.stringify({ keys: [this.key.jwk] }));
    if (url.pathname !== '/auth') return void res.writeHead(404).end();
    this.requests.push(url.searchParams);
    const q = url.searchParams;
    const l = this.next;
    const valid =
      l &&
      q.get('client_id') === this.clientId &&
      q.get('response_type') === 'id_token' &&
      q.get('response_mode') === 'form_post' &&
      q.get('scope') === 'openid' &&
      q.get('login_hint') === l.sub;
    if (!l || !valid || !q.get('nonce') || !q.get('state') || !q.get('redirect_uri'))
      return void res.writeHead(400, { 'content-type': 'text/plain' }).end('invalid authentication request');
    const payload = this.claims(l, q.get('nonce') as string);
    const idToken = this.tamper ? await this.tamper(payload, (p) => this.sign(p)) : await this.sign(payload);
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(
      launchFormHtml({
        action: q.get('redirect_uri') as string,
        fields: { id_token: idToken, state: q.get('state') as string },
      }),
    );
  }
}

const attr = (s: string) => s.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;');

function launchFormHtml(f: LaunchForm): string {
  const inputs = Object.entries(f.fields)
    .map(([k, v]) => `<input type="hidden" name="${attr(k)}" value="${attr(v)}">`)
    .join('');
  return `<!DOCTYPE html><html><body onload="document.forms[0].submit()"><form method="post" action="${attr(f.action)}">${inputs}<noscript><button type="submit">Continue</button></noscript></form></body></html>`;
}

/** The LMS's auto-posting launch form read from its page. */
export function launchForm(body: string): LaunchForm | undefined {
  const form = /<form method="post" action="([^"]+)">([\s\S]*?)<\/form>/.exec(body);
  if (!form) return undefined;
  const unescape = (s: string) =>
    s
      .replace(/&quot;/g, '"')
      .replace(/&lt;/g, '<')
      .replace(/&amp;/g, '&');
  const fields: Record<string, string> = {};
  for (const m of form[2].matchAll(/<input type="hidden" name="([^"]+)" value="([^"]*)">/g))
    fields[unescape(m[1])] = unescape(m[2]);
  return { action: unescape(form[1]), fields };
}
