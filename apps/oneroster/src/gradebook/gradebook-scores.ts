/**
 * Score statuses of results (reference §3.11; v1.2 §3): the five values with their spaces, in
 * any letter case, stored canonical; v1.2 also takes `ext:` values, stored as sent.
 */
import { EXT_VALUE, SCORE_STATUS_TYPES, type ScoreStatus } from '@edu/oneroster-query';
import type { FieldReader } from './gradebook-fields';

const canonical = new Map<string, ScoreStatus>(SCORE_STATUS_TYPES.map((s) => [s, s]));
const listed = SCORE_STATUS_TYPES.map((s) => `'${s}'`).join(', ');

/** The stored form of a score status, or a failure naming the field. */
export function readScoreStatus(r: FieldReader, name: string, extensible: boolean): string {
  const v = r.raw(name);
  if (v === undefined) r.fail(name, 'is required');
  if (typeof v === 'string') {
    const known = canonical.get(v.toLowerCase());
    if (known) return known;
    if (extensible && EXT_VALUE.test(v)) return v;
  }
  return r.fail(name, `must be one of ${listed}${extensible ? " or an extension value 'ext:<name>'" : ''}`);
}
