/**
 * Events of one deployment's view: when what it may see changes (an activation, or data that
 * moves objects in or out of a rule), the objects that entered its view are `created` for it and
 * those that left `deleted`, in the roster change feed, only for that deployment. Nothing is
 * recorded for objects it could see neither before nor after.
 */
import { ROSTER_EVENTS_PER_CHUNK } from '@edu/persistence';
import { orgTreeCte } from './closure-sql';
import type { WithholdCategory } from './sharing-spec';
import { SqlValues } from './sql-values';
import { visibleCondition } from './visibility-sql';
import { withheldFields, withholdsClass } from './withheld-fields';

/** A view: the scope listing what it shows (null: everything) and the classes it withholds. */
export interface View {
  readonly scopeId: string | null;
  readonly withhold: readonly WithholdCategory[];
}

/** Whatever runs SQL in the caller's transaction (a pg client, a TypeORM manager). */
export interface SqlRunner {
  query(text: string, values?: unknown[]): Promise<unknown>;
}

/** The feed's collections, with the table and OneRoster class of each. */
export const FEED_OBJECTS: ReadonlyArray<{ object: string; table: string; resource: string }> = [
  { object: 'orgs', table: 'roster_orgs', resource: 'org' },
  { object: 'academicSessions', table: 'roster_academic_sessions', resource: 'academicSession' },
  { object: 'courses', table: 'roster_courses', resource: 'course' },
  { object: 'classes', table: 'roster_classes', resource: 'class' },
  { object: 'users', table: 'roster_users', resource: 'user' },
  { object: 'enrollments', table: 'roster_enrollments', resource: 'enrollment' },
  { object: 'demographics', table: 'roster_demographics', resource: 'demographics' },
  { object: 'resources', table: 'roster_resources', resource: 'resource' },
  { object: 'categories', table: 'gradebook_categories', resource: 'category' },
  { object: 'lineItems', table: 'gradebook_line_items', resource: 'lineItem' },
  { object: 'results', table: 'gradebook_results', resource: 'result' },
  { object: 'scoreScales', table: 'gradebook_score_scales', resource: 'scoreScale' },
  { object: 'assessmentLineItems', table: 'gradebook_assessment_line_items', resource: 'assessmentLineItem' },
  { object: 'assessmentResults', table: 'gradebook_assessment_results', resource: 'assessmentResult' },
];

/** The condition a view puts on rows of a class, its scope id bound in `p`. */
function shows(view: View, resource: string, p: SqlValues): string {
  if (withholdsClass(resource, view.withhold)) return 'false';
  const tree = resource === 'org' ? 't.sourced_id IN (SELECT id FROM tree)' : 'true';
  if (view.scopeId === null) return tree;
  const scoped = visibleCondition(resource, p.bind(view.scopeId, 'bigint'), 't');
  return scoped ? `${tree} AND ${scoped}` : tree;
}

/**
 * Records, in the caller's transaction, the events of `deploymentId`'s view changing from `from`
 * to `to`: objects that entered it `created`, that left it `deleted`, and, where the withheld
 * fields of a class changed, every object still in it `updated` (its answer has other fields now).
 */
export async function recordViewChanges(
  sql: SqlRunner,
  tenantId: string,
  deploymentId: string,
  from: View,
  to: View,
): Promise<void> {
  for (const { object, table, resource } of FEED_OBJECTS) {
    const p = new SqlValues([tenantId, deploymentId]);
    const [was, is] = [shows(from, resource, p), shows(to, resource, p)];
    const reshaped = !sameFields(withheldFields(resource, from.withhold), withheldFields(resource, to.withhold));
    if (was === is && !reshaped) continue;
    const changed = reshaped ? `((${is}) OR (${was}))` : `((${is}) <> (${was}))`;
    // Chunked as the capture triggers chunk: a row per type of each run of ROSTER_EVENTS_PER_CHUNK objects.
    await sql.query(
      `WITH RECURSIVE ${orgTreeCte('$1::uuid')},
       changed AS (
         SELECT CASE WHEN NOT (${is}) THEN 'deleted' WHEN NOT (${was}) THEN 'created' ELSE 'updated' END AS type, t.sourced_id
           FROM ${table} AS t WHERE t.tenant_id = $1::uuid AND ${changed}),
       chunked AS (
         SELECT c.type, c.sourced_id, (row_number() OVER () - 1) / ${ROSTER_EVENTS_PER_CHUNK} AS chunk
           FROM changed c)
       INSERT INTO roster_events (tenant_id, type, object, sourced_ids, deployment_id)
       SELECT $1::uuid, k.type, '${object}', array_agg(k.sourced_id), $2::uuid FROM chunked k
        GROUP BY k.chunk, k.type ORDER BY k.chunk, k.type`,
      p.list,
    );
  }
}

function sameFields(a: ReadonlySet<string>, b: ReadonlySet<string>): boolean {
  return a.size === b.size && [...a].every((f) => b.has(f));
}
