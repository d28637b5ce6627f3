import { Injectable, type NestMiddleware } from '@nestjs/common';
import type { NextFunction, Request, Response } from 'express';
import { withRequestReads } from './request-reads';

/** Gives every sign-in request its own memo of reads (see request-reads.ts). */
@Injectable()
export class RequestReadsMiddleware implements NestMiddleware {
  use(_req: Request, _res: Response, next: NextFunction): void {
    withRequestReads(next);
  }
}
