import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { exportJWK, generateKeyPair, SignJWT, type CryptoKey, type JWK } from 'jose';
import Provider from 'oidc-provider';
import { memoryAdapterFactory } from './memory-oidc-adapter';
import { loginPage } from './upstream-login-page';

export interface UpstreamPerson {
  sub: string;
  email?: string;
  email_verified?: boolean;
  name?: string;
}

/** Rewrites the ID token the upstream's token endpoint returns (forgery tests). */
export type IdTokenTamper = (
  idToken: string,
  tools: { payload: Record<string, unknown>; signWithRealKey: (payload: Record<string, unknown>) => Promise<string> },
) => Promise<string>;

export interface TestUpstreamOptions {
  clientId: string;
  clientSecret: string;
  redirectUris: string[];
  /** Show a login form asking for `nextPerson`'s e-mail (browser tests) instead of signing them in at once. */
  loginPage?: boolean;
}

/**
 * A local upstream OpenID Connect provider standing in for a school's Google or Microsoft: a real
 * oidc-provider whose interaction signs in `nextPerson` at once. `tamper` rewrites the ID token
 * it issues, for forged-token tests.
 */
export class TestUpstream {
  nextPerson: UpstreamPerson = { sub: 'nobody' };
  tamper?: IdTokenTamper;
  /** Counts the token requests (a replayed or refused flow must not reach it twice). */
  tokenRequests = 0;

  private constructor(
    readonly issuer: string,
    private readonly server: Server,
    private readonly provider: Provider,
    private readonly key: { privateKey: CryptoKey; kid: string },
    private readonly withLoginPage = false,
  ) {}

  static async start(o: TestUpstreamOptions): Promise<TestUpstream> {
    const server = createServer();
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const { privateKey } = await generateKeyPair('ES256', { extractable: true });
    const jwk: JWK = { ...(await exportJWK(privateKey)), kid: 'upstream-1', alg: 'ES256', use: 'sig' };
    const holder: { self?: TestUpstream } = {};
    const provider = new Provider(issuer, {
      adapter: memoryAdapterFactory(),
      clients: [
        {
          client_id: o.clientId,
          client_secret: o.clientSecret,
          redirect_uris: o.redirectUris,
          id_token_signed_response_alg: 'ES256',
        },
      ],
      jwks: { keys: [jwk as never] },
      claims: { openid: ['sub'], email: ['email', 'email_verified'], profile: ['name'] },
      conformIdTokenClaims: false,
      features: { devInteractions: { enabled: false } },
      pkce: { required: () => true },
      findAccount: async (_ctx, sub) => ({
        accountId: sub,
        claims: async () => ({ ...(holder.self?.nextPerson.sub === sub ? holder.self.nextPerson : {}), sub }),
      }),
      interactions: { url: (_ctx, i) => `/interaction/${i.uid}` },
    });
    const upstream = new TestUpstream(
      issuer,
      server,
      provider,
      { privateKey: privateKey as CryptoKey, kid: 'upstream-1' },
      o.loginPage,
    );
    holder.self = upstream;
    const callback = provider.callback();
    server.on('request', (req: IncomingMessage, res: ServerResponse) => {
      void upstream.route(req, res, callback).catch(() => {
        res.statusCode = 500;
        res.end('upstream test provider failed');
      });
    });
    return upstream;
  }

  async stop(): Promise<void> {
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  private async route(
    req: IncomingMessage,
    res: ServerResponse,
    callback: (req: IncomingMessage, res: ServerResponse) => unknown,
  ): Promise<void> {
    if (req.url?.startsWith('/interaction/')) return this.interact(req, res);
    if (req.method === 'POST' && req.url === '/token') {
      this.tokenRequests++;
      if (this.tamper) this.rewriteIdToken(res);
    }
    await callback(req, res);
  }

  /** Signs in `nextPerson` and grants what the client asked for, with no page. */
  private async interact(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const details = await this.provider.interactionDetails(req, res);
    if (details.prompt.name === 'login') {
      if (this.withLoginPage && !(await loginPage(req, res, details.uid, this.nextPerson))) return;
      await this.provider.interactionFinished(
        req,
        res,
        { login: { accountId: this.nextPerson.sub } },
        { mergeWithLastSubmission: false },
      );
      return;
    }
    const grant = new this.provider.Grant({
      accountId: String(details.session?.accountId),
      clientId: String(details.params.client_id),
    });
    grant.addOIDCScope(String(details.params.scope));
    await this.provider.interactionFinished(
      req,
      res,
      { consent: { grantId: await grant.save() } },
      { mergeWithLastSubmission: true },
    );
  }

  private rewriteIdToken(res: ServerResponse): void {
    const end = res.end.bind(res) as (chunk?: unknown) => ServerResponse;
    const tamper = this.tamper as IdTokenTamper;
    const signWithRealKey = (payload: Record<string, unknown>) =>
      new SignJWT(payload).setProtectedHeader({ alg: 'ES256', kid: this.key.kid }).sign(this.key.privateKey);
    res.end = ((chunk?: unknown) => {
      let body: { id_token?: string };
      try {
        body = JSON.parse(String(chunk));
      } catch {
        return end(chunk);
      }
      if (!body.id_token) return end(chunk);
      const payload = JSON.parse(Buffer.from(body.id_token.split('.')[1], 'base64url').toString()) as Record<
        string,
        unknown
      >;
      void tamper(body.id_token, { payload, signWithRealKey }).then((token) => {
        const text = JSON.stringify({ ...body, id_token: token });
        res.setHeader('Content-Length', Buffer.byteLength(text));
        end(text);
      });
      return res;
    }) as typeof res.end;
  }
}
