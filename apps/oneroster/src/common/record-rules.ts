/** Rules of OneRoster records shared by the CSV import and the gradebook API, so both refuse the same values. */
import type { ScoreStatus } from '@edu/oneroster-query';

/** Longest sourcedId accepted (a single line of at most this many characters). */
export const MAX_SOURCED_ID_LENGTH = 256;

/** Score statuses with nothing to score: a result with one of them may come without a score (PUT and CSV alike). */
export const UNSCORED_STATUSES: ReadonlySet<string> = new Set<ScoreStatus>(['exempt', 'not submitted']);
