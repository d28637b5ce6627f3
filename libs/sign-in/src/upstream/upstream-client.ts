import { Injectable } from '@nestjs/common';
import { createHash } from 'node:crypto';
import * as oidc from 'openid-client';
import { SignInEnv } from '../sign-in.env';
import { guardedFetch, upstreamTargetPolicy } from './guarded-fetch';
import { tenantConfiguration } from './tenant-upstream';
import type { UpstreamProvider } from './upstream-provider';

/** What the portal keeps between sending a person to their provider and their return. */
export interface UpstreamChecks {
  state: string;
  nonce: string;
  codeVerifier: string;
}

/** The verified identity an upstream provider vouched for. */
export interface UpstreamIdentity {
  issuer: string;
  subject: string;
  email?: string;
  emailVerified: boolean;
  name?: string;
  nickname?: string;
  picture?: string;
}

/** Raised for anything an upstream provider got wrong: the portal shows a page, never a trace. */
export class UpstreamError extends Error {
  constructor(
    message: string,
    readonly detail: string,
  ) {
    super(message);
  }
}

/**
 * The S256 code challenge of a PKCE verifier (RFC 7636 4.2: BASE64URL(SHA256(verifier))), the
 * value `oidc.calculatePKCECodeChallenge` gives (checked in the spec). That one goes through
 * WebCrypto's asynchronous digest, a job on the thread pool that cost about 0.2 ms of CPU per
 * sign-in, 1.3 % of identity's; the hash itself takes microseconds.
 */
export function pkceChallenge(codeVerifier: string): string {
  return createHash('sha256').update(codeVerifier).digest('base64url');
}

const CONFIG_CACHE_MS = 10 * 60_000;
const TIMEOUT_SECONDS = 10;

/**
 * The relying-party side of sign-in, on openid-client: discovery (cached per replica), the
 * authorization URL with state, nonce and PKCE, and the code exchange with the ID token checked
 * (signature against the provider's JWKS, iss, aud, exp, nonce).
 */
@Injectable()
export class UpstreamClient {
  private readonly configs = new Map<string, { config: Promise<oidc.Configuration>; at: number }>();
  private readonly allowHttp: boolean;
  /** Requests to tenant-configured URLs go through the SSRF guard. */
  private readonly tenantFetch: oidc.CustomFetch;

  constructor(env: SignInEnv) {
    // Outside production an upstream may be plain http (the demo and test providers on localhost).
    this.allowHttp = env.NODE_ENV !== 'production';
    this.tenantFetch = guardedFetch(upstreamTargetPolicy(!this.allowHttp));
  }

  async authorizationUrl(p: UpstreamProvider, redirectUri: string): Promise<{ url: URL; checks: UpstreamChecks }> {
    const config = await this.config(p);
    const checks = {
      state: oidc.randomState(),
      nonce: oidc.randomNonce(),
      codeVerifier: oidc.randomPKCECodeVerifier(),
    };
    const url = oidc.buildAuthorizationUrl(config, {
      redirect_uri: redirectUri,
      scope: p.scope,
      state: checks.state,
      nonce: checks.nonce,
      code_challenge: pkceChallenge(checks.codeVerifier),
      code_challenge_method: 'S256',
    });
    return { url, checks };
  }

  async exchange(p: UpstreamProvider, callbackUrl: URL, checks: UpstreamChecks): Promise<UpstreamIdentity> {
    const config = await this.config(p);
    let claims: oidc.IDToken | undefined;
    try {
      const tokens = await oidc.authorizationCodeGrant(config, callbackUrl, {
        expectedState: checks.state,
        expectedNonce: checks.nonce,
        pkceCodeVerifier: checks.codeVerifier,
        idTokenExpected: true,
      });
      claims = tokens.claims();
    } catch (err) {
      throw new UpstreamError(`${p.label} did not complete the sign-in`, describe(err));
    }
    if (!claims) throw new UpstreamError(`${p.label} did not complete the sign-in`, 'no ID token');
    return toIdentity(claims);
  }

  private config(p: UpstreamProvider): Promise<oidc.Configuration> {
    const key = `${p.kind}:${p.id}:${p.issuer}:${p.clientId}:${p.version ?? ''}`;
    const hit = this.configs.get(key);
    if (hit && Date.now() - hit.at < CONFIG_CACHE_MS) return hit.config;
    const config = this.discover(p);
    this.configs.set(key, { config, at: Date.now() });
    config.catch(() => this.configs.delete(key));
    return config;
  }

  private async discover(p: UpstreamProvider): Promise<oidc.Configuration> {
    const auth = p.clientSecret ? oidc.ClientSecretBasic(p.clientSecret) : oidc.None();
    const execute = [oidc.enableNonRepudiationChecks, ...(this.allowHttp ? [oidc.allowInsecureRequests] : [])];
    try {
      if (p.endpoints)
        return await tenantConfiguration(p, p.endpoints, this.tenantFetch, {
          allowHttp: this.allowHttp,
          timeout: TIMEOUT_SECONDS,
        });
      return await oidc.discovery(new URL(p.issuer), p.clientId, undefined, auth, {
        execute,
        timeout: TIMEOUT_SECONDS,
      });
    } catch (err) {
      throw new UpstreamError(`${p.label} cannot be reached right now`, describe(err));
    }
  }
}

function toIdentity(c: oidc.IDToken): UpstreamIdentity {
  const str = (v: unknown) => (typeof v === 'string' && v.length > 0 ? v : undefined);
  return {
    issuer: c.iss,
    subject: c.sub,
    email: str(c.email)?.toLowerCase(),
    emailVerified: c.email_verified === true,
    name: str(c.name),
    nickname: str(c.nickname) ?? str(c.given_name),
    picture: str(c.picture),
  };
}

function describe(err: unknown): string {
  if (!(err instanceof Error)) return String(err);
  const code = (err as { code?: string }).code;
  const cause = err.cause instanceof Error ? `: ${err.cause.message}` : '';
  return `${code ? `${code} ` : ''}${err.message}${cause}`;
}
