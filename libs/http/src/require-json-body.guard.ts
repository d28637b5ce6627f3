import { CanActivate, ExecutionContext, Injectable } from '@nestjs/common';
import type { Request } from 'express';
import { ApiError, ApiErrorCode } from '@edu/domain';

/** 415 unless the request declares a JSON body (spec 4.3: `Content-Type: application/json`). */
@Injectable()
export class RequireJsonBody implements CanActivate {
  canActivate(ctx: ExecutionContext): boolean {
    const req = ctx.switchToHttp().getRequest<Request>();
    if (!req.is('application/json')) {
      throw new ApiError(ApiErrorCode.UnsupportedMediaType, 'The request body must be application/json');
    }
    return true;
  }
}
