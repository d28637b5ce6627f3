/**
 * Errors and warnings produced while reading OneRoster query parameters.
 *
 * Errors stop the request (HTTP 400 with an imsx failure payload); warnings ride along with a
 * successful response (imsx success/warning entries in `statusInfoSet`).
 */

/**
 * imsx_codeMinor values this library can raise as errors; all map to HTTP 400. v1.2 answers have
 * no room for warnings, so there an unknown `fields` name is the error `invalid_selection_field`.
 */
export type OneRosterQueryErrorCode = 'invalid_filter_field' | 'invaliddata' | 'invalid_selection_field';

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

  /** The error a warning becomes where warnings cannot be sent (v1.2): unknown fields keep their code, sort problems are `invaliddata`. */
  static fromWarning(warning: QueryWarning): OneRosterQueryError {
    const code = warning.code === 'invalid_selection_field' ? 'invalid_selection_field' : 'invaliddata';
    return new OneRosterQueryError(code, warning.parameter, warning.problem);
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
  /** Human-readable text for `imsx_description`: the problem and what was done instead. */
  readonly message: string;
  /** The problem alone, for where it is refused instead (v1.2). */
  readonly problem: string;
  /** The rejected values, as sent. */
  readonly values: readonly string[];
}
