import type { NestExpressApplication } from '@nestjs/platform-express';
import * as oidc from 'openid-client';
import { DataSource } from 'typeorm';
import { loadConfig, trustProxyValue } from '@edu/config';
import {
  baseTestEnv,
  createTestApp,
  createTestDatabase,
  listenOnSocket,
  listeningSocket,
  World,
  type TestDatabase,
} from '@edu/testing';
import {
  CookieBrowser,
  FORM_HEADERS,
  nextStop,
  providerChoice,
  TestUpstream,
  type BrowserResponse,
  type UpstreamPerson,
} from '@edu/testing/sign-in';
import { IdentityEnv } from '../../src/config/identity.env';
import { IdentityModule } from '../../src/identity.module';
import { setupOpenApi } from '../../src/openapi';

export const RP_REDIRECT = 'https://app.example/callback';

/** A partner app signing people in: openid-client, as a relying party would use it. */
export interface RelyingParty {
  config: oidc.Configuration;
  clientId: string;
  clientSecret: string;
  appId: string;
}

export interface Journey {
  /** The last response: a redirect to the app's redirect URI when the sign-in completed. */
  res: BrowserResponse;
  checks: { state: string; nonce: string; verifier: string };
  browser: CookieBrowser;
}

/**
 * Identity replicas (one or more Nest apps on one database, listening on real ports, issuer = the
 * first) with Google configured as the local upstream provider.
 */
export class SignInHarness {
  private constructor(
    readonly apps: NestExpressApplication[],
    readonly db: TestDatabase,
    readonly issuer: string,
    readonly upstream: TestUpstream,
    readonly env: IdentityEnv,
  ) {}

  get ds(): DataSource {
    return this.apps[0].get(DataSource);
  }

  world(): World {
    return new World(this.ds);
  }

  /** Base URL of replica `i` (same host name as the issuer: cookies follow, as behind one host). */
  replica(i: number): string {
    return `http://127.0.0.1:${(this.apps[i].getHttpServer().address() as { port: number }).port}`;
  }

  static async start(
    o: { replicas?: number; env?: Record<string, string>; upstreamLoginPage?: boolean } = {},
  ): Promise<SignInHarness> {
    const db = await createTestDatabase();
    // The issuer's socket is held from here on: its URL is in the configuration the app starts with.
    const socket = await listeningSocket();
    const issuer = socket.url;
    const upstream = await TestUpstream.start({
      clientId: 'edu-google',
      clientSecret: 'upstream-secret',
      redirectUris: [`${issuer}/signin/callback`],
      loginPage: o.upstreamLoginPage,
    });
    const env = loadConfig(
      IdentityEnv,
      baseTestEnv({
        DATABASE_URL: db.url,
        TOKEN_ISSUER: issuer,
        PUBLIC_BASE_URL: issuer,
        SIGNIN_GOOGLE_ISSUER: upstream.issuer,
        SIGNIN_GOOGLE_CLIENT_ID: 'edu-google',
        SIGNIN_GOOGLE_CLIENT_SECRET: 'upstream-secret',
        ...o.env,
      }),
    );
    const apps: NestExpressApplication[] = [];
    for (let i = 0; i < (o.replicas ?? 1); i++) {
      const app = await createTestApp(IdentityModule.forRoot(env), {
        bodyLimitBytes: env.BODY_LIMIT_BYTES,
        // As main.ts sets it (runHttpService): unset, the connection's peer is the client.
        trustProxy: trustProxyValue(env.TRUST_PROXY),
      });
      if (i === 0) setupOpenApi(app);
      if (i === 0) await listenOnSocket(app, socket);
      else await app.listen(0, '127.0.0.1');
      apps.push(app);
    }
    return new SignInHarness(apps, db, issuer, upstream, env);
  }

  async stop(): Promise<void> {
    for (const app of this.apps) await app.close();
    await this.upstream?.stop();
    await this.db?.drop();
  }

  async relyingParty(
    app: { app: { id: string }; clientId: string; clientSecret: string },
    auth: 'basic' | 'post' = 'basic',
  ): Promise<RelyingParty> {
    const clientAuth =
      auth === 'basic' ? oidc.ClientSecretBasic(app.clientSecret) : oidc.ClientSecretPost(app.clientSecret);
    const config = await oidc.discovery(new URL(this.issuer), app.clientId, undefined, clientAuth, {
      execute: [oidc.allowInsecureRequests],
    });
    return { config, clientId: app.clientId, clientSecret: app.clientSecret, appId: app.app.id };
  }

  /** The app's authorization request with fresh state, nonce and PKCE. */
  async authorizationUrl(
    rp: RelyingParty,
    params: Record<string, string> = {},
  ): Promise<{ url: URL; checks: Journey['checks'] }> {
    const checks = { state: oidc.randomState(), nonce: oidc.randomNonce(), verifier: oidc.randomPKCECodeVerifier() };
    const url = oidc.buildAuthorizationUrl(rp.config, {
      redirect_uri: RP_REDIRECT,
      scope: 'openid profile email tenant',
      state: checks.state,
      nonce: checks.nonce,
      code_challenge: await oidc.calculatePKCECodeChallenge(checks.verifier),
      code_challenge_method: 'S256',
      ...params,
    });
    return { url, checks };
  }

  /**
   * A person's whole trip: the app's authorization request, the portal's provider page, the
   * upstream provider, back to the app's redirect URI (or wherever it stopped). `hop` rewrites
   * each URL of the identity service (to send steps to other replicas).
   */
  async signIn(
    rp: RelyingParty,
    person: UpstreamPerson,
    o: { params?: Record<string, string>; provider?: string; hop?: (url: string, step: number) => string } = {},
  ): Promise<Journey> {
    const { url, checks } = await this.authorizationUrl(rp, o.params);
    this.upstream.nextPerson = person;
    const browser = new CookieBrowser();
    const hop = o.hop ?? ((u: string) => u);
    let step = 0;
    const follow = async (start: string): Promise<BrowserResponse> => {
      let res = await browser.get(hop(start, step++));
      while (res.location && res.status >= 300 && res.status < 400 && !res.location.startsWith(RP_REDIRECT))
        res = await browser.get(hop(res.location, step++));
      return res;
    };
    let res = await follow(url.href);
    // The providers page: press the provider's button (a form with the CSRF token).
    const choice = res.status === 200 ? providerChoice(res.body, o.provider ?? 'google') : undefined;
    if (choice) {
      res = await browser.request(hop(`${this.issuer}${choice.action}`, step++), {
        method: 'POST',
        headers: FORM_HEADERS,
        body: choice.body,
      });
      const next = nextStop(res);
      if (next && !next.startsWith(RP_REDIRECT)) res = await follow(next);
    }
    return { res, checks, browser };
  }

  /** The app's code exchange, with openid-client checking the ID token against our discovery. */
  exchange(rp: RelyingParty, j: Journey) {
    return oidc.authorizationCodeGrant(rp.config, new URL(j.res.location as string), {
      pkceCodeVerifier: j.checks.verifier,
      expectedState: j.checks.state,
      expectedNonce: j.checks.nonce,
      idTokenExpected: true,
    });
  }
}
