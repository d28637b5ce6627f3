/**
 * Output formatting of dates and datetimes. The service emits the compact forms of spec 2.9
 * by default (`20240131T235959.123Z`, `20240131`); a deployment setting switches to ISO 8601
 * (`2024-01-31T23:59:59.123Z`, `2024-01-31`).
 */
import { parseDateLiteral } from './parse';

export type DateOutputMode = 'compact' | 'iso8601';

/** A valid Date whose UTC year has four digits (the only years both output forms can express). */
function inFourDigitYears(value: Date): boolean {
  const year = value.getUTCFullYear();
  return !Number.isNaN(year) && year >= 0 && year <= 9999;
}

/** A datetime in millisecond precision, UTC: compact `YYYYMMDDTHHmmss.SSSZ` or ISO `YYYY-MM-DDTHH:mm:ss.SSSZ`. */
export function formatDateTime(value: Date | string, mode: DateOutputMode): string {
  const instant = value instanceof Date ? value : new Date(value);
  if (!inFourDigitYears(instant)) throw new RangeError(`Cannot format an invalid datetime: ${String(value)}`);
  const iso = instant.toISOString();
  return mode === 'iso8601' ? iso : iso.replace(/[-:]/g, '');
}

/**
 * A calendar date: compact `YYYYMMDD` or ISO `YYYY-MM-DD`. Accepts `YYYY-MM-DD` / `YYYYMMDD`
 * strings, or a Date whose UTC calendar day is used.
 */
export function formatDate(value: string | Date, mode: DateOutputMode): string {
  let iso: string | undefined;
  if (value instanceof Date) {
    iso = inFourDigitYears(value) ? value.toISOString().slice(0, 10) : undefined;
  } else {
    iso = parseDateLiteral(value);
  }
  if (iso === undefined) throw new RangeError(`Cannot format an invalid date: ${String(value)}`);
  return mode === 'iso8601' ? iso : iso.replace(/-/g, '');
}
