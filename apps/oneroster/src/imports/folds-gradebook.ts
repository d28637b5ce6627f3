/**
 * The folds of the v1.2 gradebook link files into line items and results (imported ones only:
 * files naming an app's object are refused):
 *
 * - `score_scale_sourced_id`: the score scale of the owner's one active link (two are an error);
 *   none, null;
 * - `learning_objective_set`: the active objective records grouped by source, in the answer
 *   shape (reference v1.2 §4.4), sources in "C" order, ids (results: `{learningObjectiveId,
 *   score?, textScore?}`) in record sourcedId order; none, null (absent).
 */
import type { RosterFileType } from './csv-layout';
import { affectedTable, recordStaging, type FoldCheck, type FoldSpec } from './fold-sql';

interface Owner {
  readonly type: RosterFileType;
  readonly table: string;
  readonly column: string;
  readonly noun: string;
}

const LINE_ITEM: Owner = {
  type: 'lineItems',
  table: 'gradebook_line_items',
  column: 'line_item_sourced_id',
  noun: 'line item',
};
const RESULT: Owner = { type: 'results', table: 'gradebook_results', column: 'result_sourced_id', noun: 'result' };

const active = (table: string, owner: Owner) =>
  `FROM ${table} x WHERE x.tenant_id = $1 AND x.${owner.column} = o.sourced_id AND x.status = 'active'`;

function fold(
  name: string,
  records: RosterFileType,
  recordTable: string,
  owner: Owner,
  column: string,
  value: string,
): FoldSpec {
  return {
    name,
    records,
    recordTable,
    ownerColumn: owner.column,
    owner: owner.type,
    ownerTable: owner.table,
    columns: [column],
    select: (owners) => `SELECT o.sourced_id AS owner, ${value} AS ${column} FROM ${owners} o`,
    appWritable: true,
    checks: [],
  };
}

function scoreScaleFold(records: RosterFileType, recordTable: string, owner: Owner): FoldSpec {
  const spec = fold(
    `${owner.noun} score scales`,
    records,
    recordTable,
    owner,
    'score_scale_sourced_id',
    `(SELECT min(x.score_scale_sourced_id) ${active(recordTable, owner)})`,
  );
  const oneScale: FoldCheck = {
    file: `${records}.csv`,
    column: owner.column === LINE_ITEM.column ? 'lineItemSourcedId' : 'resultSourcedId',
    sql:
      `SELECT coalesce(max(s._line), 0) AS line, x.${owner.column} AS id, NULL AS detail FROM ${recordTable} x LEFT JOIN "${recordStaging(spec)}" s ON s.sourced_id = x.sourced_id AND NOT s._tombstone ` +
      `WHERE x.tenant_id = $1 AND x.status = 'active' AND x.${owner.column} IN (SELECT owner FROM "${affectedTable(spec)}") GROUP BY x.${owner.column} HAVING count(*) > 1 ORDER BY 1, 2`,
    message: (id) => `${owner.noun} '${id}' has more than one active score scale (at most one)`,
  };
  return { ...spec, checks: [oneScale] };
}

/** `[{source, <key>: [<item>, …]}, …]` of the owner's active records; null when none. */
function objectivesValue(recordTable: string, owner: Owner, key: string, item: string): string {
  return (
    `(SELECT jsonb_agg(jsonb_build_object('source', g.source, '${key}', g.items) ORDER BY g.source COLLATE "C") ` +
    `FROM (SELECT x.source, jsonb_agg(${item} ORDER BY x.sourced_id COLLATE "C") AS items ${active(recordTable, owner)} GROUP BY x.source) g)`
  );
}

export const GRADEBOOK_FOLDS: readonly FoldSpec[] = [
  scoreScaleFold('lineItemScoreScales', 'gradebook_line_item_score_scales', LINE_ITEM),
  scoreScaleFold('resultScoreScales', 'gradebook_result_score_scales', RESULT),
  fold(
    'line item learning objectives',
    'lineItemLearningObjectiveIds',
    'gradebook_line_item_learning_objectives',
    LINE_ITEM,
    'learning_objective_set',
    objectivesValue(
      'gradebook_line_item_learning_objectives',
      LINE_ITEM,
      'learningObjectiveIds',
      'to_jsonb(x.learning_objective_id)',
    ),
  ),
  fold(
    'result learning objectives',
    'resultLearningObjectiveIds',
    'gradebook_result_learning_objectives',
    RESULT,
    'learning_objective_set',
    objectivesValue(
      'gradebook_result_learning_objectives',
      RESULT,
      'learningObjectiveResults',
      "jsonb_strip_nulls(jsonb_build_object('learningObjectiveId', x.learning_objective_id, 'score', x.score, 'textScore', x.text_score))",
    ),
  ),
];
