import { CanActivate, ExecutionContext, Injectable } from '@nestjs/common';
import type { Request } from 'express';
import { ApiError, ApiErrorCode } from '@edu/domain';

/** For routes whose body is optional: no body (or an empty one) is fine, a body must be JSON (415 otherwise). */
@Injectable()
export class OptionalJsonBody implements CanActivate {
  canActivate(ctx: ExecutionContext): boolean {
    const req = ctx.switchToHttp().getRequest<Request>();
    const empty = req.headers['content-length'] === '0' || req.is('application/json') === null;
    if (!empty && !req.is('application/json'))
      throw new ApiError(ApiErrorCode.UnsupportedMediaType, 'A request body, when sent, must be application/json');
    return true;
  }
}
