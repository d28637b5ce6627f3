import { OidcPayloadEntity } from './oidc-payload.entity';
import { SignInGrantEntity } from './sign-in-grant.entity';

export * from './oidc-payload.entity';
export * from './sign-in-grant.entity';

export const SIGN_IN_ENTITIES = [OidcPayloadEntity, SignInGrantEntity];
