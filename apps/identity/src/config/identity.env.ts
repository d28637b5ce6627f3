import { IsInt, IsOptional, IsString, IsUrl, Max, Min, MinLength } from 'class-validator';
import {
  DEMO_KEY_ENCRYPTION_KEY,
  HttpServiceEnv,
  RefuseInProduction,
  Secret,
  ToInt,
  URL_OPTS,
  WithTrafficControl,
} from '@edu/config';

export const DEMO_OPERATOR_SECRET = 'demo-operator-secret-not-for-production';
export { DEMO_KEY_ENCRYPTION_KEY };

/** Configuration of the identity service (validated at boot). */
export class IdentityEnv extends WithTrafficControl(HttpServiceEnv) {
  override PORT = 3000;

  @IsString()
  @MinLength(3)
  OPERATOR_CLIENT_ID = 'operator';

  @Secret()
  @IsString()
  @MinLength(16)
  @RefuseInProduction(DEMO_OPERATOR_SECRET)
  OPERATOR_CLIENT_SECRET = DEMO_OPERATOR_SECRET;

  /** Encrypts signing keys at rest (and the sign-in cookies' signing keys are derived from it). */
  @Secret()
  @IsString()
  @MinLength(32)
  @RefuseInProduction(DEMO_KEY_ENCRYPTION_KEY)
  KEY_ENCRYPTION_KEY = DEMO_KEY_ENCRYPTION_KEY;

  @ToInt()
  @IsInt()
  @Min(60)
  @Max(86_400)
  ACCESS_TOKEN_TTL_SECONDS = 3600;

  /** The OpenID Connect issuer (design §10): this service's public URL. Unset: `TOKEN_ISSUER`. */
  @IsOptional()
  @IsUrl(URL_OPTS)
  PUBLIC_BASE_URL?: string;

  /** Lifetime of sign-in refresh tokens (each use rotates the token). */
  @ToInt()
  @IsInt()
  @Min(300)
  @Max(90 * 86_400)
  SIGNIN_REFRESH_TOKEN_TTL_SECONDS = 14 * 86_400;

  /** How long a person may take to sign in at the upstream provider. */
  @ToInt()
  @IsInt()
  @Min(60)
  @Max(3600)
  SIGNIN_INTERACTION_TTL_SECONDS = 900;

  /** How long the sign-in log (GET /tenants/:id/sign-ins) keeps a sign-in. */
  @ToInt()
  @IsInt()
  @Min(1)
  @Max(3650)
  SIGNIN_LOG_RETENTION_DAYS = 365;

  // Core identity providers (spec 2.2): the operator's OpenID Connect client at each, never a
  // tenant's. A core provider without an issuer is not offered on the sign-in pages.
  @IsOptional()
  @IsUrl(URL_OPTS)
  SIGNIN_GOOGLE_ISSUER?: string;

  @IsOptional()
  @IsString()
  SIGNIN_GOOGLE_CLIENT_ID?: string;

  @Secret()
  @IsOptional()
  @IsString()
  SIGNIN_GOOGLE_CLIENT_SECRET?: string;

  @IsOptional()
  @IsUrl(URL_OPTS)
  SIGNIN_MICROSOFT_ISSUER?: string;

  @IsOptional()
  @IsString()
  SIGNIN_MICROSOFT_CLIENT_ID?: string;

  @Secret()
  @IsOptional()
  @IsString()
  SIGNIN_MICROSOFT_CLIENT_SECRET?: string;
}

/** The OpenID Connect issuer of this service. */
export function oidcIssuer(env: IdentityEnv): string {
  return (env.PUBLIC_BASE_URL ?? env.TOKEN_ISSUER).replace(/\/+$/, '');
}
