import { Inject, Injectable, Logger, type OnApplicationBootstrap, type OnModuleDestroy } from '@nestjs/common';
import { SCOPE_CATALOG } from '@edu/auth';
import { ApiError, ScopeCatalog } from '@edu/domain';
import { RosterDb } from '../../db/roster-db';
import { OnerosterEnv } from '../../oneroster.env';
import { TenantAccessService, type TenantAccess } from '../../tenancy/tenant-access.service';
import type { FeedPosition } from '../event-cursor';
import { EventLogRepository } from '../event-log.repository';
import { rosterEventsSecret } from '../events.env';
import { eventsJson, RosterEventsService, type RenderedEvent } from '../events.service';
import { feedRoots } from '../feed-roots';
import { END_OF_BATCH, EventStreamsRepository, type ClaimedStream } from './event-streams.repository';
import { PushQueue } from './push-queue';

/** Streams stepped at most per round (each once). */
const STREAMS_PER_ROUND = 100;
/** How often streams are opened for new webhooks and deployments, and closed for gone ones. */
const RECONCILE_EVERY_MS = 5_000;
/** How long a stream whose step failed or was refused waits before it is tried again. */
const PAUSE_MS = 30_000;

/** The later of two feed positions. */
function later(a: FeedPosition, b: FeedPosition): FeedPosition {
  const [ab, an, bb, bn] = [BigInt(a.b), BigInt(a.n), BigInt(b.b), BigInt(b.n)];
  return ab > bb || (ab === bb && an >= bn) ? a : b;
}

/**
 * Push of the roster change feed (design §11): each roster-events webhook gets, for each
 * deployment of its app holding the feed's scope, that deployment's feed (the pull API's events:
 * scopes, sharing and withheld fields applied) in batches of up to ROSTER_EVENTS_PUSH_BATCH
 * events, one batch in flight at a time, so batches arrive in feed order. A batch is an event
 * delivery (`roster.events`) that the webhook dispatcher signs, sends and retries as any other;
 * a delivered batch moves its stream on, one that ends undeliverable is read and sent again.
 */
@Injectable()
export class RosterEventPush implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly logger = new Logger('RosterEventPush');
  private readonly roots;
  private readonly scope: string;
  private timer?: NodeJS.Timeout;
  private running?: Promise<void>;
  private lastReconcile = 0;
  private stopped = false;

  constructor(
    private readonly env: OnerosterEnv,
    private readonly db: RosterDb,
    private readonly streams: EventStreamsRepository,
    private readonly feed: RosterEventsService,
    private readonly log: EventLogRepository,
    private readonly tenants: TenantAccessService,
    private readonly queue: PushQueue,
    @Inject(SCOPE_CATALOG) catalog: ScopeCatalog,
  ) {
    this.roots = feedRoots(env);
    this.scope = catalog.uri('roster.events.readonly');
  }

  onApplicationBootstrap(): void {
    if (this.env.ROSTER_EVENTS_PUSH_INTERVAL_MS === 0) return;
    if (rosterEventsSecret(this.env) === undefined) {
      this.logger.warn('Roster event push is off: ROSTER_EVENTS_CURSOR_SECRET is not set');
      return;
    }
    this.schedule();
  }

  async onModuleDestroy(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.timer);
    await this.running;
  }

  private schedule(): void {
    if (this.stopped) return;
    this.timer = setTimeout(() => {
      this.running = this.round()
        .then(() => undefined)
        .catch((err) => this.logger.warn({ err }, 'Roster event push round failed'))
        .finally(() => this.schedule());
    }, this.env.ROSTER_EVENTS_PUSH_INTERVAL_MS);
    this.timer.unref();
  }

  /** One round: opens new streams now and then, then steps each stream that has a step to take once. */
  async round(): Promise<number> {
    if (Date.now() - this.lastReconcile >= RECONCILE_EVERY_MS) {
      this.lastReconcile = Date.now();
      await this.streams.reconcile(this.scope, this.env.SERVICE_REGION);
    }
    const done: [string, string][] = [];
    while (done.length < STREAMS_PER_ROUND && !this.stopped) {
      const stepped = await this.stepOne(done);
      if (!stepped) break;
      done.push(stepped);
    }
    return done.length;
  }

  /** Claims one stream and takes its step; the stream's key, or undefined when none was due. */
  private async stepOne(done: readonly [string, string][]): Promise<[string, string] | undefined> {
    let claimed: ClaimedStream | undefined;
    let queued: string | undefined;
    try {
      await this.db.transaction(async (tx) => {
        claimed = await this.streams.claim(tx, done);
        if (!claimed) return;
        const step = await this.next(claimed);
        if (step.body === undefined) await this.streams.rest(tx, claimed, step.end, step.delivered);
        else
          queued = await this.streams.send(
            tx,
            claimed,
            { after: step.after, end: step.end, events: step.events, body: step.body },
            step.delivered,
          );
      });
    } catch (err) {
      if (!claimed) throw err;
      const refused = err instanceof ApiError;
      if (!refused) this.logger.warn({ err, webhookId: claimed.webhookId }, 'Roster event push step failed');
      await this.streams.pause(claimed.webhookId, claimed.deploymentId, PAUSE_MS, String(err));
    }
    if (queued) await this.queue.enqueue(queued);
    return claimed && [claimed.webhookId, claimed.deploymentId];
  }

  /**
   * What a claimed stream does next: from the end of a delivered batch (or from where it stood,
   * when its batch ended otherwise), read the next batch; `body` undefined: nothing to send, the
   * stream rests at `end`.
   */
  private async next(
    s: ClaimedStream,
  ): Promise<{ after: FeedPosition; end: FeedPosition; events: number; delivered: number; body?: string }> {
    const delivered = s.inFlight?.status === 'delivered' ? s.inFlight.events : 0;
    const after = s.inFlight?.status === 'delivered' ? s.inFlight.end : s.after;
    const access = await this.tenants.resolve({
      kind: 'tenant',
      tenantId: s.tenantId,
      deploymentId: s.deploymentId,
      appId: s.appId,
      clientId: s.appId,
      scopes: new Set(),
      tokenId: `push:${s.webhookId}`,
    });
    const objects = this.feed.objectsOf(access, s.filter?.objects);
    const head = await this.log.head(s.tenantId);
    const caughtUp = { b: head.b, n: END_OF_BATCH };
    if (objects.length === 0) return { after, end: later(after, caughtUp), events: 0, delivered };
    const read = await this.feed.read(access, after, this.env.ROSTER_EVENTS_PUSH_BATCH, objects, this.roots);
    const end = read.more ? read.next : later(read.next, caughtUp);
    const events = this.filtered(read.events, s.filter?.types);
    if (events.length === 0) return { after, end, events: 0, delivered };
    return { after, end, events: events.length, delivered, body: this.body(s, access, events, end, read.more) };
  }

  private filtered(events: RenderedEvent[], types: string[] | undefined): RenderedEvent[] {
    if (!types) return events;
    return events.filter((e) => types.includes(e.type.slice(e.type.lastIndexOf('.') + 1)));
  }

  /** A batch as the receiver gets it (the `event` claim of a `roster.events` delivery). */
  private body(
    s: ClaimedStream,
    access: TenantAccess,
    events: RenderedEvent[],
    end: FeedPosition,
    more: boolean,
  ): string {
    const j = JSON.stringify;
    return (
      `{"webhook_id":${j(s.webhookId)},"tenant_id":${j(s.tenantId)},"deployment_id":${j(s.deploymentId)},` +
      `"events":${eventsJson(events)},"next_cursor":${j(this.feed.cursorAt(access, end))},"has_more":${more}}`
    );
  }
}
