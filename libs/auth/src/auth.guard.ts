import { CanActivate, ExecutionContext, Inject, Injectable } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { ScopeCatalog, type Principal, type ScopeKey } from '@edu/domain';
import { PRINCIPAL_KEY, PUBLIC_ROUTE, REQUIRED_SCOPES } from './auth.decorators';
import { insufficientScope, invalidToken } from './auth.errors';
import { TokenVerifier } from './token-verifier';

export const TOKEN_VERIFIER = Symbol('TOKEN_VERIFIER');
export const SCOPE_CATALOG = Symbol('SCOPE_CATALOG');

const BEARER = /^Bearer\s+([A-Za-z0-9\-_.~+/]+=*)\s*$/i;

/**
 * Global guard, deny by default: a route must be `@Public()` or declare `@RequireScopes()`.
 * A route declaring neither is refused for every caller (and flagged by the route-inventory test).
 */
@Injectable()
export class AuthGuard implements CanActivate {
  constructor(
    private readonly reflector: Reflector,
    @Inject(TOKEN_VERIFIER) private readonly verifier: TokenVerifier,
    @Inject(SCOPE_CATALOG) private readonly catalog: ScopeCatalog,
  ) {}

  async canActivate(ctx: ExecutionContext): Promise<boolean> {
    const targets = [ctx.getHandler(), ctx.getClass()];
    if (this.reflector.getAllAndOverride<boolean>(PUBLIC_ROUTE, targets)) return true;

    const req = ctx
      .switchToHttp()
      .getRequest<{ headers: Record<string, string | undefined> } & Record<string, unknown>>();
    const header = req.headers['authorization'];
    if (!header) throw invalidToken('An access token is required (Authorization: Bearer <token>)', false);
    const match = BEARER.exec(header);
    if (!match) throw invalidToken('The Authorization header must be "Bearer <token>"', true);

    const principal: Principal = await this.verifier.verify(match[1]);
    req[PRINCIPAL_KEY] = principal;

    const accepted = this.reflector.getAllAndOverride<ScopeKey[] | undefined>(REQUIRED_SCOPES, targets) ?? [];
    const acceptedUris = this.catalog.uris(accepted);
    if (!acceptedUris.some((uri) => principal.scopes.has(uri))) throw insufficientScope(acceptedUris);
    return true;
  }
}
