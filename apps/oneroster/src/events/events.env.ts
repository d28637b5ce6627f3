import { IsInt, IsString, Max, Min, MinLength, ValidateIf } from 'class-validator';
import { RefuseInProduction, Secret, ToInt } from '@edu/config';

// The TypeScript mixin pattern requires a constructor type taking `any[]`.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Ctor<T = object> = new (...args: any[]) => T;

/** Demo value of ROSTER_EVENTS_CURSOR_SECRET (refused in production). */
export const DEMO_ROSTER_EVENTS_CURSOR_SECRET = 'demo-roster-events-cursor-secret-not-for-production';

/** Settings of the roster change feed (`events/`). */
export function WithRosterEvents<TBase extends Ctor>(Base: TBase) {
  class RosterEventsEnv extends Base {
    /**
     * Signs the feed's cursors (HMAC-SHA256), so a cursor cannot be forged or moved to another
     * tenant or deployment. Every replica of a region needs the same value; changing it makes
     * outstanding cursors invalid (their clients start again from `after=beginning`). Unset: the
     * demo value outside production; in production the feed answers 503 until it is set.
     */
    @Secret()
    @ValidateIf((o: { ROSTER_EVENTS_CURSOR_SECRET?: string }) => o.ROSTER_EVENTS_CURSOR_SECRET !== undefined)
    @IsString()
    @MinLength(32)
    @RefuseInProduction(DEMO_ROSTER_EVENTS_CURSOR_SECRET)
    ROSTER_EVENTS_CURSOR_SECRET?: string;

    /**
     * The horizon: events older than this many days are compacted to the latest event per object
     * (a compacted topic); a cursor from before it still replays to the current state.
     */
    @ToInt()
    @IsInt()
    @Min(1)
    @Max(3650)
    ROSTER_EVENTS_RETENTION_DAYS = 35;

    /** How often a replica tries to compact (one at a time per database). */
    @ToInt()
    @IsInt()
    @Min(1_000)
    ROSTER_EVENTS_COMPACTION_INTERVAL_MS = 60 * 60_000;

    /**
     * How often a replica looks for roster-events webhooks with a batch to send (a finished batch,
     * or new events); 0 turns push off on this replica (the feed's pull API is unaffected).
     */
    @ToInt()
    @IsInt()
    @Min(0)
    @Max(60_000)
    ROSTER_EVENTS_PUSH_INTERVAL_MS = 250;

    /** Most events in one pushed delivery. */
    @ToInt()
    @IsInt()
    @Min(1)
    @Max(1_000)
    ROSTER_EVENTS_PUSH_BATCH = 200;

    /**
     * Retries after a pushed batch's first attempt, as the webhook dispatcher counts them: the same
     * value as its WEBHOOK_MAX_RETRIES (spec: 10), since the job carries its number of attempts.
     */
    @ToInt()
    @IsInt()
    @Min(0)
    @Max(50)
    WEBHOOK_MAX_RETRIES = 10;
  }
  return RosterEventsEnv;
}

/** The secret signing the feed's cursors; undefined in production until one is configured. */
export function rosterEventsSecret(env: {
  ROSTER_EVENTS_CURSOR_SECRET?: string;
  NODE_ENV?: string;
}): string | undefined {
  return (
    env.ROSTER_EVENTS_CURSOR_SECRET ?? (env.NODE_ENV === 'production' ? undefined : DEMO_ROSTER_EVENTS_CURSOR_SECRET)
  );
}
