import { All, Controller, Req } from '@nestjs/common';
import type { Request } from 'express';
import { Public } from '@edu/auth';
import { ApiError, ApiErrorCode } from '@edu/domain';
import { namedFor, type OneRosterApi } from '../../common/oneroster-api';
import type { OneRosterService } from '../../query/roster-tables';

/** Path shapes (segments after the service root, `*` = any id) that take more than GET, and what they take. */
type MethodRule = readonly [pattern: readonly string[], allow: string];

const PUT_DELETE = 'GET, HEAD, PUT, DELETE';
const one = (collection: string): MethodRule => [[collection, '*'], PUT_DELETE];

/** v1.1: PUT and DELETE on the three gradebook collections (reference §6.3). */
const V1P1_RULES: readonly MethodRule[] = [one('categories'), one('lineItems'), one('results')];

/** v1.2 gradebook (reference v1.2 §9.2): PUT/DELETE on six collections, four bulk POSTs (POST only). */
const V1P2_GRADEBOOK_RULES: readonly MethodRule[] = [
  ...['categories', 'lineItems', 'results', 'scoreScales', 'assessmentLineItems', 'assessmentResults'].map(one),
  [['classes', '*', 'lineItems'], 'GET, HEAD, POST'],
  [['schools', '*', 'lineItems'], 'POST'],
  [['lineItems', '*', 'results'], 'POST'],
  [['classes', '*', 'academicSessions', '*', 'results'], 'POST'],
];

function rulesOf(api: OneRosterApi, service: OneRosterService): readonly MethodRule[] {
  if (api.version === 'v1p1') return V1P1_RULES;
  return service === 'gradebook' ? V1P2_GRADEBOOK_RULES : [];
}

/** The methods a path under a service root supports (for `Allow`). */
export function allowedMethods(api: OneRosterApi, service: OneRosterService, path: string): string {
  const root = api.prefix[service].split('/').length;
  const segments = path.split('/').filter(Boolean).slice(root);
  const rule = rulesOf(api, service).find(
    ([pattern]) => pattern.length === segments.length && pattern.every((p, i) => p === '*' || p === segments[i]),
  );
  return rule ? rule[1] : 'GET, HEAD';
}

/**
 * Everything under a service root that no OneRoster operation matched. Registered last (its own
 * module, imported last), so it only sees what the real routes did not take:
 * - a method the path does not support → 405 with `Allow` (answered before authentication, as
 *   it reveals nothing);
 * - any other request → 404 `unknownobject`.
 */
export function unsupportedController(api: OneRosterApi, service: OneRosterService) {
  @Controller(api.prefix[service])
  @Public()
  class UnsupportedController {
    @All(['', '*path'])
    unsupported(@Req() req: Request): never {
      const allow = allowedMethods(api, service, req.path);
      if (!allow.split(', ').includes(req.method)) {
        throw new ApiError(ApiErrorCode.MethodNotAllowed, `${req.method} is not supported on this OneRoster path`, {
          allow,
        });
      }
      throw new ApiError(ApiErrorCode.NotFound, 'No such OneRoster route');
    }
  }
  Object.defineProperty(UnsupportedController, 'name', {
    value: `UnsupportedController${service === 'rostering' ? '' : `-${service}`}`,
  });
  return namedFor(api, UnsupportedController);
}
