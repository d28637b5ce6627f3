/**
 * `limit` and `offset`. Service spec §4.2/§7/§8 override the reference: a bad value is a 400
 * (`invaliddata`). The one exception is opt-in per deployment (the consumer compatibility
 * profile): a well-formed `limit` above the maximum is served as the maximum (reference §5.1
 * allows a clamp reflected in the links), since Google Classroom and Microsoft SDS ask for 5000
 * or 10000 and treat a 400 as a failed sync.
 */
import { OneRosterQueryError, excerpt } from '../errors';

export const DEFAULT_LIMIT = 100;
export const MAX_LIMIT = 1000;
export const DEFAULT_OFFSET = 0;

const DIGITS = /^\d+$/;

function wholeNumber(parameter: string, text: string): number {
  const trimmed = text.trim();
  const value = DIGITS.test(trimmed) ? Number(trimmed) : Number.NaN;
  if (!Number.isSafeInteger(value)) {
    throw OneRosterQueryError.invalidData(parameter, `'${parameter}' must be a whole number, got '${excerpt(text)}'`);
  }
  return value;
}

/** What a `limit` above the maximum gets: a 400 (spec) or the maximum (consumer compatibility profile). */
export type OverLimit = 'reject' | 'clamp';

/** `limit`: default `defaultLimit`, else an integer in 1..maxLimit (above it: 400, or maxLimit with `clamp`). */
export function parseLimit(
  text: string | undefined,
  defaultLimit = DEFAULT_LIMIT,
  maxLimit = MAX_LIMIT,
  overLimit: OverLimit = 'reject',
): number {
  if (text === undefined) return defaultLimit;
  const value = wholeNumber('limit', text);
  if (value > maxLimit && overLimit === 'clamp') return maxLimit;
  if (value < 1 || value > maxLimit) {
    throw OneRosterQueryError.invalidData('limit', `'limit' must be between 1 and ${maxLimit}, got '${excerpt(text)}'`);
  }
  return value;
}

/** `offset`: default 0, else an integer >= 0. */
export function parseOffset(text: string | undefined): number {
  return text === undefined ? DEFAULT_OFFSET : wholeNumber('offset', text);
}
