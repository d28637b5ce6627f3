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
import { WithSignIn } from '@edu/sign-in';

export const DEMO_OPERATOR_SECRET = 'demo-operator-secret-not-for-production';
export { DEMO_KEY_ENCRYPTION_KEY };

/** Configuration of the identity service (validated at boot). */
export class IdentityEnv extends WithSignIn(WithTrafficControl(HttpServiceEnv)) {
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
}
