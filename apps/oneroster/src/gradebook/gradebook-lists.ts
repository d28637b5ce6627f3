/**
 * The structured lists of v1.2 bodies (reference v1.2 §4.4): learning objective sets of line
 * items and results, and the values of a score scale. Closed objects, read into the shape the
 * read side emits as stored (jsonb), optional members left out when absent.
 *
 * A learning objective `source` is `case`, `unknown`, or a lower-case alphanumeric name; the OAS
 * pattern wants such names with a leading `/` (reference §13 #13), so they are accepted with or
 * without it and stored with it, so that what is read back validates.
 */
import { checkText, type FieldReader } from './gradebook-fields';

const TEXT_MAX = 10_000;
const NAMED_SOURCE = /^[a-z0-9]+$/;

function source(r: FieldReader): string {
  const v = r.raw('source');
  if (v === undefined) r.fail('source', 'is required');
  const bare = typeof v === 'string' && v.startsWith('/') ? v.slice(1) : v;
  if (bare === 'case' || bare === 'unknown') return bare;
  if (typeof bare === 'string' && NAMED_SOURCE.test(bare)) return `/${bare}`;
  return r.fail(
    'source',
    "must be 'case', 'unknown' or a lower-case alphanumeric name (with or without a leading '/')",
  );
}

const OBJECTIVES = new Set(['source', 'learningObjectiveIds']);
const OBJECTIVE_SCORES = new Set(['source', 'learningObjectiveResults']);
const OBJECTIVE_RESULT = new Set(['learningObjectiveId', 'score', 'textScore']);
const SCALE_VALUE = new Set(['itemValueLHS', 'itemValueRHS']);

const nonEmpty = (s: string) => checkText(s, TEXT_MAX);

/** `[{source, learningObjectiveIds: [id, …]}]`; an empty list is absent. */
export function readObjectives(r: FieldReader, name: string): unknown[] | null {
  const sets = r.list(name, false, 0, (item) => {
    item.closed(OBJECTIVES);
    return { source: source(item), learningObjectiveIds: item.strings('learningObjectiveIds', 1, nonEmpty) };
  });
  return sets && sets.length > 0 ? sets : null;
}

function objectiveResult(item: FieldReader): Record<string, unknown> {
  item.closed(OBJECTIVE_RESULT);
  const score = item.number('score', false);
  const textScore = item.text('textScore', TEXT_MAX, false);
  return {
    learningObjectiveId: item.text('learningObjectiveId', TEXT_MAX, true),
    ...(score !== null ? { score } : {}),
    ...(textScore !== null ? { textScore } : {}),
  };
}

/** `[{source, learningObjectiveResults: [{learningObjectiveId, score?, textScore?}, …]}]`; an empty list is absent. */
export function readObjectiveScores(r: FieldReader, name: string): unknown[] | null {
  const sets = r.list(name, false, 0, (item) => {
    item.closed(OBJECTIVE_SCORES);
    return {
      source: source(item),
      learningObjectiveResults: item.list('learningObjectiveResults', true, 1, objectiveResult),
    };
  });
  return sets && sets.length > 0 ? sets : null;
}

/** `[{itemValueLHS, itemValueRHS}, …]`, at least one. */
export function readScaleValues(r: FieldReader, name: string, required: boolean): unknown[] | null {
  return r.list(name, required, 1, (item) => {
    item.closed(SCALE_VALUE);
    return {
      itemValueLHS: item.text('itemValueLHS', TEXT_MAX, true),
      itemValueRHS: item.text('itemValueRHS', TEXT_MAX, true),
    };
  });
}
