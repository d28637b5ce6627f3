import { All, Controller, Req } from '@nestjs/common';
import type { Request } from 'express';
import { Public } from '@edu/auth';
import { ApiError, ApiErrorCode } from '@edu/domain';
import { ONEROSTER_PREFIX } from '../roster-http';

/** Collections of the OneRoster v1.1 gradebook and resources services (reference §6.3). */
const OTHER_SERVICES = new Set(['categories', 'lineItems', 'results', 'resources']);

/**
 * Everything under the service root that no rostering read matched. Registered last, so it only
 * sees what the real routes did not take:
 * - any method other than GET/HEAD → 405 `unsupportedoperation` with `Allow: GET, HEAD`
 *   (the service is read-only; answered before authentication, as it reveals nothing);
 * - GET of a gradebook or resources route → 404 `unknownobject` naming the service as not
 *   offered (consistently 404, never 501);
 * - any other GET → 404 `unknownobject`.
 */
@Controller(ONEROSTER_PREFIX)
@Public()
export class UnsupportedController {
  @All(['', '*path'])
  unsupported(@Req() req: Request): never {
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      throw new ApiError(ApiErrorCode.MethodNotAllowed, `${req.method} is not supported: this OneRoster service is read-only`, { allow: 'GET, HEAD' });
    }
    const segments = req.path.split('/').filter(Boolean).slice(3);
    if (segments.some((s) => OTHER_SERVICES.has(s))) {
      throw new ApiError(ApiErrorCode.NotFound, 'The OneRoster gradebook and resources services are not offered by this rostering service');
    }
    throw new ApiError(ApiErrorCode.NotFound, 'No such OneRoster route');
  }
}
