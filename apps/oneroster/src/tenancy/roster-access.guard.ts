import { CanActivate, createParamDecorator, ExecutionContext, Injectable } from '@nestjs/common';
import { PRINCIPAL_KEY } from '@edu/auth';
import { ApiError, ApiErrorCode, type Principal } from '@edu/domain';
import { TenantAccessService, type TenantAccess } from './tenant-access.service';

export const TENANT_ACCESS_KEY = 'rosterTenantAccess';

/**
 * Runs after the global token/scope guard: only tenant-context tokens may read rostering data
 * (developer and operator tokens get 403), and the tenant must pass the licence and region
 * rules. The resolved tenant is left on the request for `@RosterTenant()`.
 */
@Injectable()
export class RosterAccessGuard implements CanActivate {
  constructor(private readonly tenants: TenantAccessService) {}

  async canActivate(ctx: ExecutionContext): Promise<boolean> {
    const req = ctx.switchToHttp().getRequest<Record<string, unknown>>();
    const who = req[PRINCIPAL_KEY] as Principal | undefined;
    if (!who || who.kind !== 'tenant') {
      throw new ApiError(ApiErrorCode.InsufficientScope, 'The rostering API answers tenant-context tokens only');
    }
    req[TENANT_ACCESS_KEY] = await this.tenants.resolve(who);
    return true;
  }
}

/** The caller's tenant as checked by `RosterAccessGuard`. */
export const RosterTenant = createParamDecorator((_: unknown, ctx: ExecutionContext): TenantAccess => {
  const req = ctx.switchToHttp().getRequest<Record<string, unknown>>();
  const access = req[TENANT_ACCESS_KEY] as TenantAccess | undefined;
  if (!access) throw new Error('RosterTenant used on a route without RosterAccessGuard');
  return access;
});
