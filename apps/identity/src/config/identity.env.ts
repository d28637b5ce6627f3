import { IsInt, IsString, Max, Min, MinLength } from 'class-validator';
import { DEMO_KEY_ENCRYPTION_KEY, HttpServiceEnv, RefuseInProduction, Secret, ToInt, WithTrafficControl } from '@edu/config';

export const DEMO_OPERATOR_SECRET = 'demo-operator-secret-not-for-production';
export { DEMO_KEY_ENCRYPTION_KEY };

/** Configuration of the identity service (validated at boot). */
export class IdentityEnv extends WithTrafficControl(HttpServiceEnv) {
  override PORT = 3000;

  @IsString() @MinLength(3)
  OPERATOR_CLIENT_ID = 'operator';

  @Secret() @IsString() @MinLength(16) @RefuseInProduction(DEMO_OPERATOR_SECRET)
  OPERATOR_CLIENT_SECRET = DEMO_OPERATOR_SECRET;

  /** Encrypts signing keys at rest. */
  @Secret() @IsString() @MinLength(32) @RefuseInProduction(DEMO_KEY_ENCRYPTION_KEY)
  KEY_ENCRYPTION_KEY = DEMO_KEY_ENCRYPTION_KEY;

  @ToInt() @IsInt() @Min(60) @Max(86_400)
  ACCESS_TOKEN_TTL_SECONDS = 3600;
}
