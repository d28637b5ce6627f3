import { applyDecorators, createParamDecorator, SetMetadata, type ExecutionContext } from '@nestjs/common';
import { ApiBearerAuth, ApiForbiddenResponse, ApiUnauthorizedResponse } from '@nestjs/swagger';
import type { Principal, ScopeKey } from '@edu/domain';

export const PUBLIC_ROUTE = 'edu:public';
export const REQUIRED_SCOPES = 'edu:scopes';

/** Opts a route (or controller) out of authentication. */
export const Public = (): MethodDecorator & ClassDecorator => SetMetadata(PUBLIC_ROUTE, true);

/**
 * The route needs a valid token holding at least one of these scopes (spec §5: "at least one
 * scope listed"). Also documents the requirement in OpenAPI.
 */
export function RequireScopes(...scopes: ScopeKey[]): MethodDecorator & ClassDecorator {
  return applyDecorators(
    SetMetadata(REQUIRED_SCOPES, scopes),
    ApiBearerAuth('bearer'),
    ApiUnauthorizedResponse({ description: 'Missing, invalid or expired token' }),
    ApiForbiddenResponse({ description: `Token lacks every accepted scope: ${scopes.join(', ')}` }),
  );
}

export const PRINCIPAL_KEY = 'principal';

/** Injects the verified Principal of the request. */
export const CurrentPrincipal = createParamDecorator((_: unknown, ctx: ExecutionContext): Principal => {
  const req = ctx.switchToHttp().getRequest<Record<string, unknown>>();
  return req[PRINCIPAL_KEY] as Principal;
});
