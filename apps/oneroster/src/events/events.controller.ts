import { Controller, Get, Header, Query, UseGuards } from '@nestjs/common';
import { RequireScopes } from '@edu/auth';
import { ApiError, ApiErrorCode } from '@edu/domain';
import { OnerosterEnv } from '../oneroster.env';
import { RosterAccessGuard, RosterTenant } from '../tenancy/roster-access.guard';
import type { TenantAccess } from '../tenancy/tenant-access.service';
import { pageJson, RosterEventsService } from './events.service';
import { feedRoots } from './feed-roots';

/** Route of the roster change feed on the OneRoster host (design §11). */
export const ROSTER_EVENTS_PATH = 'roster-events/v1/events';

/**
 * `GET /roster-events/v1/events?after=<cursor>|beginning&limit=<1-1000>&objects=users,classes`:
 * a page of the deployment's change feed and the cursor to continue from.
 */
@Controller()
@UseGuards(RosterAccessGuard)
export class RosterEventsController {
  private readonly roots;

  constructor(
    private readonly events: RosterEventsService,
    env: OnerosterEnv,
  ) {
    this.roots = feedRoots(env);
  }

  @Get(ROSTER_EVENTS_PATH)
  @RequireScopes('roster.events.readonly')
  @Header('Content-Type', 'application/json; charset=utf-8')
  async list(
    @RosterTenant() t: TenantAccess,
    @Query('after') after?: unknown,
    @Query('limit') limit?: unknown,
    @Query('objects') objects?: unknown,
  ): Promise<string> {
    const page = await this.events.page(
      t,
      { after: single(after, 'after'), limit: single(limit, 'limit'), objects: single(objects, 'objects') },
      this.roots,
    );
    return pageJson(page);
  }
}

/** A query parameter given at most once, as text. */
function single(value: unknown, name: string): string | undefined {
  if (value === undefined) return undefined;
  if (typeof value === 'string') return value;
  return badRepeat(name);
}

function badRepeat(name: string): never {
  throw new ApiError(ApiErrorCode.ValidationFailed, `${name}: give it once`, { parameter: name });
}
