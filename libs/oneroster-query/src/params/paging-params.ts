/**
 * `limit` and `offset`. Service spec §4.2/§7/§8 override the reference: a bad value is a 400
 * (`invaliddata`), never a clamp.
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

/** `limit`: default `defaultLimit`, else an integer in 1..maxLimit. */
export function parseLimit(text: string | undefined, defaultLimit = DEFAULT_LIMIT, maxLimit = MAX_LIMIT): number {
  if (text === undefined) return defaultLimit;
  const value = wholeNumber('limit', text);
  if (value < 1 || value > maxLimit) {
    throw OneRosterQueryError.invalidData('limit', `'limit' must be between 1 and ${maxLimit}, got '${excerpt(text)}'`);
  }
  return value;
}

/** `offset`: default 0, else an integer >= 0. */
export function parseOffset(text: string | undefined): number {
  return text === undefined ? DEFAULT_OFFSET : wholeNumber('offset', text);
}
