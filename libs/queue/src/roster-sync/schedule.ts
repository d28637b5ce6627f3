import { CronExpressionParser } from 'cron-parser';

/** When a source syncs by itself (the API's `schedule`): every N minutes, or a cron expression. */
export type SyncSchedule = { interval_minutes: number } | { cron: string; timezone?: string };

/** Shortest interval between two scheduled syncs of one source. */
export const MIN_SCHEDULE_MINUTES = 1;
export const MAX_SCHEDULE_MINUTES = 7 * 24 * 60;

/** A cron expression's problem (unparseable, an unknown time zone, more often than once a minute), or undefined. */
export function cronProblem(expression: string, timezone?: string): string | undefined {
  if (timezone !== undefined) {
    try {
      new Intl.DateTimeFormat('en', { timeZone: timezone });
    } catch {
      return `${timezone} is not a known time zone`;
    }
  }
  const fields = expression.trim().split(/\s+/);
  if (fields.length !== 5) return 'a cron schedule has five fields: minute hour day-of-month month day-of-week';
  try {
    const parsed = CronExpressionParser.parse(expression, { tz: timezone ?? 'UTC', currentDate: new Date() });
    parsed.next();
  } catch (err) {
    return `not a valid cron expression: ${(err as Error).message}`;
  }
  return undefined;
}

/** BullMQ repeat options of a schedule. */
export function repeatOptionsOf(schedule: SyncSchedule): { every: number } | { pattern: string; tz: string } {
  return 'interval_minutes' in schedule
    ? { every: schedule.interval_minutes * 60_000 }
    : { pattern: schedule.cron.trim(), tz: schedule.timezone ?? 'UTC' };
}
