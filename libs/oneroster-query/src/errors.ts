/**
 * Errors and warnings produced while reading OneRoster query parameters.
 *
 * Errors stop the request (HTTP 400 with an imsx failure payload); warnings ride along with a
 * successful response (imsx success/warning entries in `statusInfoSet`).
 */

/** imsx_codeMinor values this library can raise as errors. Both map to HTTP 400. */
export type OneRosterQueryErrorCode = 'invalid_filter_field' | 'invaliddata';

/** imsx_codeMinor values this library can raise as warnings (HTTP 200). */
export type OneRosterQueryWarningCode = 'invalid_sort_field' | 'invalid_selection_field';

/** A rejected query parameter. `parameter` names the offending query parameter (e.g. `limit`, `filter`). */
export class OneRosterQueryError extends Error {
  override readonly name = 'OneRosterQueryError';
  /** HTTP status to answer with; every query error is a client error. */
  readonly httpStatus = 400;

  constructor(
    readonly code: OneRosterQueryErrorCode,
    readonly parameter: string,
    message: string,
    /** Zero-based character offset inside a `filter` value, when the problem has a position. */
    readonly position?: number,
  ) {
    super(message);
  }

  static filter(message: string, position?: number): OneRosterQueryError {
    return new OneRosterQueryError('invalid_filter_field', 'filter', message, position);
  }

  static invalidData(parameter: string, message: string): OneRosterQueryError {
    return new OneRosterQueryError('invaliddata', parameter, message);
  }
}

/** Shortens client-supplied text before echoing it in a message (descriptions stay readable). */
export function excerpt(text: string, max = 80): string {
  return text.length <= max ? text : `${text.slice(0, max)}…`;
}

export function isOneRosterQueryError(value: unknown): value is OneRosterQueryError {
  return value instanceof OneRosterQueryError;
}

/** A tolerated problem: the request is still answered, with this warning in `statusInfoSet`. */
export interface QueryWarning {
  readonly code: OneRosterQueryWarningCode;
  /** The query parameter the warning is about (`data_field`, `sort`, `orderBy`, `fields`). */
  readonly parameter: string;
  /** Human-readable text for `imsx_description`. */
  readonly message: string;
  /** The rejected values, as sent. */
  readonly values: readonly string[];
}
