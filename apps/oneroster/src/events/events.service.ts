import { Inject, Injectable } from '@nestjs/common';
import { SCOPE_CATALOG } from '@edu/auth';
import { ApiError, ApiErrorCode, ScopeCatalog } from '@edu/domain';
import { classWithheld, RosterSharing, type RosterVisibility } from '../tenancy/roster-sharing';
import type { TenantAccess } from '../tenancy/tenant-access.service';
import { RosterVersionsService } from '../tenancy/roster-versions.service';
import type { HrefRoots } from '../query/roster-tables';
import { BEGINNING, FeedCursors, FROM_BEGINNING, type FeedOwner, type FeedPosition } from './event-cursor';
import { EventLogRepository, type LoggedEvent } from './event-log.repository';
import { EventRenderer, type SeenRows } from './event-render';
import { FEED_OBJECT_NAMES, FEED_SCOPES, resourceOf } from './feed-objects';

export const MAX_EVENTS_PER_PAGE = 1000;
const DEFAULT_EVENTS_PER_PAGE = 100;

/** One event as a deployment reads it. */
export interface FeedEvent {
  id: string;
  cursor: string;
  created_at: string;
  type: string;
  object: string;
  sourcedId: string;
  data: unknown;
  previous: Record<string, unknown> | null;
}

/** An event with its object as the JSON text the serializer wrote (never parsed here). */
export type RenderedEvent = Omit<FeedEvent, 'data'> & { readonly dataJson: string | null };

/** A page of the feed; `eventsJson` is the JSON array of its events. */
export interface FeedPage {
  eventsJson: string;
  next_cursor: string;
  has_more: boolean;
}

const j = JSON.stringify;

/**
 * The events as a JSON array, each object's text spliced in as the serializer wrote it: a page of
 * 1,000 users is not parsed and written again. Keys in `FeedEvent` order.
 */
export function eventsJson(events: readonly RenderedEvent[]): string {
  const parts = events.map(
    (e) =>
      `{"id":${j(e.id)},"cursor":${j(e.cursor)},"created_at":${j(e.created_at)},"type":${j(e.type)},` +
      `"object":${j(e.object)},"sourcedId":${j(e.sourcedId)},"data":${e.dataJson ?? 'null'},"previous":${j(e.previous)}}`,
  );
  return `[${parts.join(',')}]`;
}

/** The page's answer body: `{"events": [...], "next_cursor", "has_more"}`. */
export function pageJson(page: FeedPage): string {
  return `{"events":${page.eventsJson},"next_cursor":${j(page.next_cursor)},"has_more":${page.has_more}}`;
}

export interface FeedQuery {
  after?: string;
  limit?: string;
  objects?: string;
}

const badParameter = (parameter: string, message: string) =>
  new ApiError(ApiErrorCode.ValidationFailed, `${parameter}: ${message}`, { parameter });

/**
 * The roster change feed of a deployment (design §11): the tenant's log in commit order, only
 * what the deployment's scopes and sharing let it see (objects it may see now, plus the changes
 * of its own view), each object rendered as OneRoster 1.2 shows it to this deployment.
 */
@Injectable()
export class RosterEventsService {
  constructor(
    private readonly log: EventLogRepository,
    private readonly render: EventRenderer,
    private readonly sharing: RosterSharing,
    private readonly versions: RosterVersionsService,
    private readonly cursors: FeedCursors,
    @Inject(SCOPE_CATALOG) private readonly catalog: ScopeCatalog,
  ) {}

  async page(access: TenantAccess, q: FeedQuery, roots: HrefRoots): Promise<FeedPage> {
    const owner: FeedOwner = { tenantId: access.tenantId, deploymentId: access.deploymentId };
    const limit = parseLimit(q.limit);
    const objects = this.objectsOf(
      access,
      q.objects === undefined || q.objects === '' ? undefined : q.objects.split(','),
    );
    if (q.after === undefined)
      return {
        eventsJson: '[]',
        next_cursor: this.cursors.issue(owner, await this.log.head(owner.tenantId)),
        has_more: false,
      };
    const from = q.after === FROM_BEGINNING ? BEGINNING : this.cursors.read(owner, q.after);
    const read = await this.read(access, from, limit, objects, roots);
    return {
      eventsJson: eventsJson(read.events),
      next_cursor: this.cursors.issue(owner, read.next),
      has_more: read.more,
    };
  }

  /**
   * Up to `limit` events after `from` of the deployment's feed, of `objects` (already checked
   * against its scopes), rendered; `next` is where the next read starts. Also what push sends.
   */
  async read(
    access: TenantAccess,
    from: FeedPosition,
    limit: number,
    objects: readonly string[],
    roots: HrefRoots,
  ): Promise<{ events: RenderedEvent[]; next: FeedPosition; more: boolean }> {
    // The current view first: computing it records the changes of the deployment's view in the log.
    const view = await this.sharing.visibility(access, await this.versions.version(access.tenantId));
    const { events, more } = await this.log.after(access.tenantId, access.deploymentId, objects, from, limit);
    const shown = await this.shown(access, events, view, roots);
    const last = events[events.length - 1];
    return { events: shown, next: last ? { b: last.b, n: last.n } : from, more };
  }

  /** A cursor of the deployment's feed at `at` (push carries one with each batch). */
  cursorAt(access: TenantAccess, at: FeedPosition): string {
    return this.cursors.issue({ tenantId: access.tenantId, deploymentId: access.deploymentId }, at);
  }

  /** The requested collections the deployment's scopes open (all of those when none are named). */
  objectsOf(access: TenantAccess, requested: readonly string[] | undefined): string[] {
    const open = FEED_OBJECT_NAMES.filter((o) =>
      (FEED_SCOPES[o] ?? []).some((k) => access.deploymentScopes.includes(this.catalog.uri(k))),
    );
    if (requested === undefined) return open;
    const named = requested.map((s) => s.trim());
    const unknown = named.filter((o) => !FEED_OBJECT_NAMES.includes(o));
    if (unknown.length > 0)
      throw badParameter(
        'objects',
        `unknown collection(s) ${unknown.join(', ')}; one of ${FEED_OBJECT_NAMES.join(', ')}`,
      );
    return open.filter((o) => named.includes(o));
  }

  /** The events the deployment may see, rendered; the others are passed over. */
  private async shown(
    access: TenantAccess,
    events: readonly LoggedEvent[],
    view: RosterVisibility,
    roots: HrefRoots,
  ): Promise<RenderedEvent[]> {
    const rows = new Map<string, SeenRows>();
    for (const object of new Set(events.map((e) => e.object))) {
      if (classWithheld(view, resourceOf(object))) continue;
      const ids = [...new Set(events.filter((e) => e.object === object).map((e) => e.sourcedId))];
      rows.set(object, await this.render.visibleRows(access.tenantId, object, ids, view, roots));
    }
    const out: RenderedEvent[] = [];
    const owner = { tenantId: access.tenantId, deploymentId: access.deploymentId };
    for (const e of events) {
      const data = rows.get(e.object)?.get(e.sourcedId);
      // A view event says what left the deployment's view: shown though the object is not.
      const ownDelete = e.deploymentId !== null && e.type === 'deleted';
      if (data === undefined && !ownDelete) continue;
      out.push({
        id: `${e.b}.${e.n}`,
        cursor: this.cursors.issue(owner, { b: e.b, n: e.n }),
        created_at: e.createdAt.toISOString(),
        type: `${e.object}.${e.type}`,
        object: e.object,
        sourcedId: e.sourcedId,
        dataJson: e.type === 'deleted' || data === undefined ? null : data,
        previous: e.type === 'updated' ? this.render.previous(e.object, e.previous, view, roots) : null,
      });
    }
    return out;
  }
}

function parseLimit(raw: string | undefined): number {
  if (raw === undefined) return DEFAULT_EVENTS_PER_PAGE;
  const n = /^\d{1,7}$/.test(raw) ? Number(raw) : NaN;
  if (!(n >= 1 && n <= MAX_EVENTS_PER_PAGE))
    throw badParameter('limit', `must be a whole number from 1 to ${MAX_EVENTS_PER_PAGE}`);
  return n;
}
