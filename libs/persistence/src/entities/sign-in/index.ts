import { OidcPayloadEntity } from './oidc-payload.entity';
import { SignInEventEntity } from './sign-in-event.entity';
import { SignInGrantEntity } from './sign-in-grant.entity';

export * from './oidc-payload.entity';
export * from './sign-in-event.entity';
export * from './sign-in-grant.entity';

export const SIGN_IN_ENTITIES = [OidcPayloadEntity, SignInGrantEntity, SignInEventEntity];
