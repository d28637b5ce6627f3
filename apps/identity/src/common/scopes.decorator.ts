import { applyDecorators } from '@nestjs/common';
import { ApiExtension } from '@nestjs/swagger';
import { RequireScopes } from '@edu/auth';
import type { ScopeKey } from '@edu/domain';

export const SCOPES_EXTENSION = 'x-required-scopes';

/**
 * `@RequireScopes(...)` (any-of) plus the scope keys in the OpenAPI operation, where
 * `setupOpenApi()` turns them into the configured scope URIs.
 */
export function Scopes(...keys: ScopeKey[]): MethodDecorator & ClassDecorator {
  return applyDecorators(RequireScopes(...keys), ApiExtension(SCOPES_EXTENSION, keys)) as MethodDecorator &
    ClassDecorator;
}
