import { createParamDecorator, type ExecutionContext } from '@nestjs/common';

/** Where an app's tenant guard leaves the tenant it resolved and checked for the request. */
export const REQUEST_TENANT_KEY = 'edu:tenant';

/**
 * Called by an app's tenant guard once the caller's tenant is known and allowed here (licence,
 * region through `assertServedRegion`, the app's own rules): handlers then take it with
 * `@RequestTenant()`, so tenant scoping is one guard and one parameter in every app.
 */
export function setRequestTenant(req: object, tenant: unknown): void {
  (req as Record<string, unknown>)[REQUEST_TENANT_KEY] = tenant;
}

/** The tenant the route's tenant guard resolved (a route without one is a programming error). */
export function requestTenantOf<T>(ctx: ExecutionContext): T {
  const req = ctx.switchToHttp().getRequest<Record<string, unknown>>();
  if (!(REQUEST_TENANT_KEY in req)) throw new Error('@RequestTenant() used on a route without a tenant guard');
  return req[REQUEST_TENANT_KEY] as T;
}

/** Hands the tenant resolved by the route's tenant guard to the handler. */
export const RequestTenant = createParamDecorator((_: unknown, ctx: ExecutionContext): unknown => requestTenantOf(ctx));
