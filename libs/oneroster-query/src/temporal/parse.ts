/**
 * Lenient parsing of date and datetime literals (filter values).
 *
 * Dates: `YYYY-MM-DD` or compact `YYYYMMDD`.
 * Datetimes: ISO 8601 extended (`2024-01-31T23:59:59.123Z`, seconds and fraction optional,
 * `Z` or an offset `+01:00` / `+0100` / `+01`) or the compact form of spec 2.9
 * (`20240131T235959.123Z`), or a date alone (midnight UTC). A `+` that arrived URL-decoded as a
 * space before the offset is accepted (`…T10:00:00 01:00`). `T` may also be `t` or a space, `Z`
 * may be `z`, the fraction may use `,`. No zone at all means UTC. Fractions beyond milliseconds
 * are truncated.
 */

export interface ParsedDateTime {
  readonly instant: Date;
  /** The literal had no time part. */
  readonly dateOnly: boolean;
}

const DATE_EXTENDED = /^(\d{4})-(\d{2})-(\d{2})$/;
const DATE_COMPACT = /^(\d{4})(\d{2})(\d{2})$/;

// date, time, then zone: Z, signed offset, or an offset whose '+' was decoded to a space.
const ZONE = '(?<zone>[Zz]|[+-]\\d{2}(?::?\\d{2})?| \\d{2}:?\\d{2})?';
const DATETIME_EXTENDED = new RegExp(
  `^(?<y>\\d{4})-(?<mo>\\d{2})-(?<d>\\d{2})[Tt ](?<h>\\d{2}):(?<mi>\\d{2})(?::(?<s>\\d{2})(?:[.,](?<f>\\d{1,9}))?)?${ZONE}$`,
);
const DATETIME_COMPACT = new RegExp(
  `^(?<y>\\d{4})(?<mo>\\d{2})(?<d>\\d{2})[Tt](?<h>\\d{2})(?<mi>\\d{2})(?:(?<s>\\d{2})(?:[.,](?<f>\\d{1,9}))?)?${ZONE}$`,
);

function isLeapYear(year: number): boolean {
  return (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0;
}

function daysInMonth(year: number, month: number): number {
  return [31, isLeapYear(year) ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][month - 1] ?? 0;
}

function validDate(year: number, month: number, day: number): boolean {
  return year >= 1 && month >= 1 && month <= 12 && day >= 1 && day <= daysInMonth(year, month);
}

function pad(value: number, width: number): string {
  return String(value).padStart(width, '0');
}

/** Builds a UTC instant without Date.UTC's 0..99 → 19xx year mapping. */
function utcInstant(year: number, month: number, day: number, h = 0, mi = 0, s = 0, ms = 0): Date {
  const instant = new Date(0);
  instant.setUTCFullYear(year, month - 1, day);
  instant.setUTCHours(h, mi, s, ms);
  return instant;
}

/** `YYYY-MM-DD` / `YYYYMMDD` → `YYYY-MM-DD`, or undefined if not a real calendar date. */
export function parseDateLiteral(text: string): string | undefined {
  const m = DATE_EXTENDED.exec(text) ?? DATE_COMPACT.exec(text);
  if (!m) return undefined;
  const [year, month, day] = [Number(m[1]), Number(m[2]), Number(m[3])];
  if (!validDate(year, month, day)) return undefined;
  return `${pad(year, 4)}-${pad(month, 2)}-${pad(day, 2)}`;
}

/** Offset in minutes east of UTC, or undefined when malformed. */
function parseZone(zone: string | undefined): number | undefined {
  if (zone === undefined || zone === 'Z' || zone === 'z') return 0;
  const sign = zone.startsWith('-') ? -1 : 1;
  const digits = zone.slice(1).replace(':', '');
  const hours = Number(digits.slice(0, 2));
  const minutes = digits.length > 2 ? Number(digits.slice(2)) : 0;
  if (hours > 23 || minutes > 59) return undefined;
  return sign * (hours * 60 + minutes);
}

/** A datetime literal (any accepted form) → instant, or undefined when malformed. */
export function parseDateTimeLiteral(text: string): ParsedDateTime | undefined {
  const date = parseDateLiteral(text);
  if (date !== undefined) {
    const [y, mo, d] = date.split('-').map(Number) as [number, number, number];
    return { instant: utcInstant(y, mo, d), dateOnly: true };
  }
  const g = (DATETIME_EXTENDED.exec(text) ?? DATETIME_COMPACT.exec(text))?.groups;
  if (!g) return undefined;
  const [year, month, day] = [Number(g['y']), Number(g['mo']), Number(g['d'])];
  const [hour, minute, second] = [Number(g['h']), Number(g['mi']), Number(g['s'] ?? '0')];
  const millis = Number((g['f'] ?? '').padEnd(3, '0').slice(0, 3));
  const offset = parseZone(g['zone']);
  if (!validDate(year, month, day) || hour > 23 || minute > 59 || second > 59 || offset === undefined) return undefined;
  const local = utcInstant(year, month, day, hour, minute, second, millis);
  return { instant: new Date(local.getTime() - offset * 60_000), dateOnly: false };
}
