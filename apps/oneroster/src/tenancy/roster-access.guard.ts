import { CanActivate, ExecutionContext, Injectable } from '@nestjs/common';
import { PRINCIPAL_KEY, RequestTenant, setRequestTenant } from '@edu/auth';
import { ApiError, ApiErrorCode, type Principal } from '@edu/domain';
import { TenantAccessService } from './tenant-access.service';

/**
 * Runs after the global token/scope guard: only tenant-context tokens may read rostering data
 * (developer and operator tokens get 403), and the tenant must pass the licence and region
 * rules. The resolved tenant is left on the request (`setRequestTenant`) for `@RosterTenant()`.
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
    setRequestTenant(req, await this.tenants.resolve(who));
    return true;
  }
}

/** The caller's tenant (a `TenantAccess`) as checked by `RosterAccessGuard`: `@RequestTenant()` of @edu/auth under the rostering API's name. */
export const RosterTenant: () => ParameterDecorator = RequestTenant;
