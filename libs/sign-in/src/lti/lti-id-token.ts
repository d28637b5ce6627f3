import { Injectable } from '@nestjs/common';
import { errors, jwtVerify, type JWTPayload } from 'jose';
import { BlockedUpstreamUrl } from '../upstream/guarded-fetch';
import { LtiKeys } from './lti-keys';
import type { LtiProvider } from './lti-providers';
import { refusals, LtiRefusal } from './lti-refusal';

const CLAIM = 'https://purl.imsglobal.org/spec/lti/claim';
export const DEPLOYMENT_CLAIM = `${CLAIM}/deployment_id`;
export const MESSAGE_TYPE_CLAIM = `${CLAIM}/message_type`;
export const VERSION_CLAIM = `${CLAIM}/version`;
export const TARGET_LINK_CLAIM = `${CLAIM}/target_link_uri`;

/** Asymmetric algorithms of the 1EdTech Security Framework (RS256 required); never `none`, never HMAC. */
const ALGORITHMS = ['RS256', 'RS384', 'RS512', 'PS256', 'PS384', 'PS512', 'ES256', 'ES384', 'ES512'];
const CLOCK_TOLERANCE_SECONDS = 5;

/** A verified launch: the claims, signed by the LMS, for this tool and this deployment. */
export type LaunchClaims = JWTPayload & { sub: string; nonce: string; exp: number; [claim: string]: unknown };

/**
 * Verifies a launch's id_token (LTI 1.3 §5.1.3, Security Framework §5.1.3) with jose: signature
 * against the provider's JWKS, alg, iss, aud (and azp when there are several audiences or one is
 * given), exp and iat, then the deployment, message type and version. The nonce is the caller's.
 */
@Injectable()
export class LtiIdTokens {
  constructor(private readonly keys: LtiKeys) {}

  async verify(p: LtiProvider, idToken: string): Promise<LaunchClaims> {
    const s = p.settings;
    let payload: JWTPayload;
    try {
      ({ payload } = await jwtVerify(idToken, this.keys.keySet(p.id, s.jwks_url), {
        issuer: s.issuer,
        audience: s.client_id,
        algorithms: ALGORITHMS,
        clockTolerance: CLOCK_TOLERANCE_SECONDS,
        requiredClaims: ['exp', 'iat', 'sub', 'nonce'],
      }));
    } catch (err) {
      throw this.refusalFor(err);
    }
    return checkLaunch(p, payload);
  }

  /** The keys could not be read (blocked by the SSRF guard, unreachable, not a key set), or the token is not good. */
  private refusalFor(err: unknown): LtiRefusal {
    const keysUnreadable =
      err instanceof BlockedUpstreamUrl ||
      err instanceof errors.JWKSTimeout ||
      err instanceof errors.JWKSInvalid ||
      !(err instanceof errors.JOSEError);
    return keysUnreadable ? refusals.keys(describe(err)) : refusals.invalidToken(describe(err));
  }
}

function checkLaunch(p: LtiProvider, c: JWTPayload): LaunchClaims {
  const s = p.settings;
  const audiences = Array.isArray(c.aud) ? c.aud : [c.aud];
  // Security Framework §5.1.3 step 4-5: several audiences need azp, and azp names this tool.
  if ((audiences.length > 1 || c.azp !== undefined) && c.azp !== s.client_id)
    throw refusals.client(`azp ${String(c.azp)} is not ${s.client_id}`);
  if (typeof c.sub !== 'string' || c.sub.length === 0 || c.sub.length > 255)
    throw refusals.invalidToken('no sub: an anonymous launch has no person to sign in');
  if (typeof c.nonce !== 'string' || c.nonce.length === 0) throw refusals.invalidToken('no nonce');
  if (c[DEPLOYMENT_CLAIM] !== s.deployment_id)
    throw refusals.deployment(`deployment_id ${String(c[DEPLOYMENT_CLAIM])} is not ${s.deployment_id}`);
  if (c[VERSION_CLAIM] !== '1.3.0') throw refusals.message(`version ${String(c[VERSION_CLAIM])}`);
  if (c[MESSAGE_TYPE_CLAIM] !== 'LtiResourceLinkRequest')
    throw refusals.message(`message_type ${String(c[MESSAGE_TYPE_CLAIM])}`);
  return c as LaunchClaims;
}

function describe(err: unknown): string {
  if (!(err instanceof Error)) return String(err);
  const code = (err as { code?: string }).code;
  const cause = err.cause instanceof Error ? `: ${err.cause.message}` : '';
  return `${code ? `${code} ` : ''}${err.message}${cause}`;
}
