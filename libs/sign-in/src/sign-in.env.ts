import { IsInt, IsOptional, IsString, IsUrl, Max, Min } from 'class-validator';
import { Secret, ToInt, URL_OPTS } from '@edu/config';

// The TypeScript mixin pattern requires a constructor type taking `any[]`.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Ctor<T = object> = new (...args: any[]) => T;

/** Sign-in's own settings, added to the host app's env class (validated with it at boot). */
export function WithSignIn<TBase extends Ctor>(Base: TBase) {
  class SignInSettings extends Base {
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
  return SignInSettings;
}

/**
 * What sign-in reads of the host's configuration: its own settings plus the host's issuer, key
 * encryption key, token lifetime and proxy trust. The host provides it under this token.
 */
export abstract class SignInEnv {
  abstract readonly NODE_ENV: string;
  abstract readonly TRUST_PROXY?: string;
  abstract readonly KEY_ENCRYPTION_KEY: string;
  abstract readonly ACCESS_TOKEN_TTL_SECONDS: number;
  abstract readonly TOKEN_ISSUER: string;
  /** The OpenID Connect issuer (design §10): this service's public URL. Unset: `TOKEN_ISSUER`. */
  abstract readonly PUBLIC_BASE_URL?: string;
  abstract readonly SIGNIN_REFRESH_TOKEN_TTL_SECONDS: number;
  abstract readonly SIGNIN_INTERACTION_TTL_SECONDS: number;
  abstract readonly SIGNIN_LOG_RETENTION_DAYS: number;
  abstract readonly SIGNIN_GOOGLE_ISSUER?: string;
  abstract readonly SIGNIN_GOOGLE_CLIENT_ID?: string;
  abstract readonly SIGNIN_GOOGLE_CLIENT_SECRET?: string;
  abstract readonly SIGNIN_MICROSOFT_ISSUER?: string;
  abstract readonly SIGNIN_MICROSOFT_CLIENT_ID?: string;
  abstract readonly SIGNIN_MICROSOFT_CLIENT_SECRET?: string;
}

/** The OpenID Connect issuer of this service. */
export function oidcIssuer(env: Pick<SignInEnv, 'PUBLIC_BASE_URL' | 'TOKEN_ISSUER'>): string {
  return (env.PUBLIC_BASE_URL ?? env.TOKEN_ISSUER).replace(/\/+$/, '');
}
