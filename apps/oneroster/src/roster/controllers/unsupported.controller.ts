import { All, Controller, Req } from '@nestjs/common';
import type { Request } from 'express';
import { Public } from '@edu/auth';
import { ApiError, ApiErrorCode } from '@edu/domain';
import { ONEROSTER_PREFIX } from '../roster-http';

/** Collections whose objects take PUT and DELETE (the gradebook service, reference §6.3). */
const WRITABLE = new Set(['categories', 'lineItems', 'results']);

/** The methods a path under the service root supports (for `Allow`). */
export function allowedMethods(path: string): string {
  const segments = path.split('/').filter(Boolean).slice(3);
  return segments.length === 2 && WRITABLE.has(segments[0] as string) ? 'GET, HEAD, PUT, DELETE' : 'GET, HEAD';
}

/**
 * Everything under the service root that no OneRoster operation matched. Registered last (its
 * own module, imported last), so it only sees what the real routes did not take:
 * - a method the path does not support → 405 `unsupportedoperation` with `Allow` (PUT and
 *   DELETE exist only on `/categories/{id}`, `/lineItems/{id}`, `/results/{id}`; answered before
 *   authentication, as it reveals nothing);
 * - any other request → 404 `unknownobject`.
 */
@Controller(ONEROSTER_PREFIX)
@Public()
export class UnsupportedController {
  @All(['', '*path'])
  unsupported(@Req() req: Request): never {
    const allow = allowedMethods(req.path);
    if (!allow.split(', ').includes(req.method)) {
      throw new ApiError(ApiErrorCode.MethodNotAllowed, `${req.method} is not supported on this OneRoster path`, { allow });
    }
    throw new ApiError(ApiErrorCode.NotFound, 'No such OneRoster route');
  }
}
