import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import * as oidc from 'openid-client';
import type { CreatedApp } from '@edu/testing';
import type { SignInHarness, RelyingParty } from './sign-in-harness';

const esc = (s: unknown) => String(s).replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
type Checks = { state: string; nonce: string; verifier: string };

/**
 * A partner app as a small web server (browser tests): it builds authorization URLs with
 * openid-client and, at its redirect URI, exchanges the code and verifies the ID token against
 * the provider's discovery, then shows the claims. `/form` serves a page with a form posting
 * elsewhere (cross-site requests in CSRF tests).
 */
export class RelyingPartyServer {
  /** ID token claims of each completed sign-in, in order. */
  readonly signedIn: oidc.IDToken[] = [];
  private lastIdToken?: string;
  private readonly pending = new Map<string, Checks>();

  private constructor(
    private readonly server: Server,
    readonly url: string,
    private readonly rp: RelyingParty,
    private readonly h: SignInHarness,
  ) {}

  get redirectUri(): string {
    return `${this.url}/callback`;
  }

  /** Starts the server on 127.0.0.1 and registers its redirect URI as the app's only one. */
  static async start(h: SignInHarness, app: CreatedApp): Promise<RelyingPartyServer> {
    const server = createServer();
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    await h.ds.query(
      `UPDATE apps SET oauth2 = jsonb_build_object('redirect_uris', jsonb_build_array($2::text)) WHERE id = $1`,
      [app.app.id, `${url}/callback`],
    );
    const self = new RelyingPartyServer(server, url, await h.relyingParty(app), h);
    server.on(
      'request',
      (req, res) =>
        void self
          .route(req, res)
          .catch((err: unknown) =>
            self.page(res, 500, 'Sign-in failed', err instanceof Error ? err.message : String(err)),
          ),
    );
    return self;
  }

  async stop(): Promise<void> {
    await new Promise<void>((r) => this.server.close(() => r()));
  }

  /** The app's sign-in link, on `origin` (a school's vanity domain) instead of the issuer's host. */
  async authorizationUrl(params: Record<string, string> = {}, origin?: string): Promise<string> {
    const { url, checks } = await this.h.authorizationUrl(this.rp, { redirect_uri: this.redirectUri, ...params });
    this.pending.set(checks.state, checks);
    return origin ? `${origin}${url.pathname}${url.search}` : url.href;
  }

  /** RP-initiated logout of the last sign-in, back to the redirect URI with `state`, on `origin` if given. */
  endSessionUrl(state: string, origin?: string): string {
    const url = oidc.buildEndSessionUrl(this.rp.config, {
      id_token_hint: this.lastIdToken ?? '',
      post_logout_redirect_uri: this.redirectUri,
      state,
    });
    return origin ? `${origin}${url.pathname}${url.search}` : url.href;
  }

  private async route(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const current = new URL(req.url ?? '/', this.url);
    const q = current.searchParams;
    if (current.pathname === '/form') return this.form(res, q);
    if (current.pathname !== '/callback') return this.page(res, 404, 'Not found', req.url);
    if (!q.has('code') && !q.has('error')) return this.page(res, 200, 'Signed out', `state ${q.get('state')}`);
    const checks = this.pending.get(current.searchParams.get('state') ?? '');
    if (!checks) return this.page(res, 400, 'Unknown sign-in', 'no sign-in was started with this state');
    if (current.searchParams.get('error'))
      return this.page(res, 403, 'Not signed in', current.searchParams.get('error'));
    this.pending.delete(checks.state);
    const tokens = await oidc.authorizationCodeGrant(this.rp.config, current, {
      pkceCodeVerifier: checks.verifier,
      expectedState: checks.state,
      expectedNonce: checks.nonce,
      idTokenExpected: true,
    });
    const claims = tokens.claims() as oidc.IDToken;
    this.lastIdToken = tokens.id_token;
    this.signedIn.push(claims);
    this.page(
      res,
      200,
      'Signed in',
      `${claims.name} (${claims.email}) at ${claims.tenant_name}; ID token from ${claims.iss}, verified`,
    );
  }

  private form(res: ServerResponse, q: URLSearchParams): void {
    const fields = [...q]
      .filter(([k]) => k !== 'action')
      .map(([k, v]) => `<input type="hidden" name="${esc(k)}" value="${esc(v)}">`);
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    res.end(
      `<!DOCTYPE html><html lang="en"><title>Another site</title><form method="post" action="${esc(q.get('action'))}">${fields.join('')}<button type="submit">Win a prize</button></form></html>`,
    );
  }

  private page(res: ServerResponse, status: number, title: string, detail: unknown): void {
    res.writeHead(status, { 'content-type': 'text/html; charset=utf-8' });
    res.end(
      `<!DOCTYPE html><html lang="en"><title>${esc(title)}</title><main><h1>${esc(title)}</h1><p id="detail">${esc(detail)}</p></main></html>`,
    );
  }
}
