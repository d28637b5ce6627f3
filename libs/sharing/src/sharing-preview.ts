import { Injectable } from '@nestjs/common';
import { Pool } from 'pg';
import { orgTreeCte } from './closure-sql';
import { SharingScopes } from './sharing-scopes';
import { canonicalSpec, type SharingSpec } from './sharing-spec';
import { visibleCondition } from './visibility-sql';
import { withholdsClass } from './withheld-fields';

/** The collections a preview counts, each as the rostering API's getAll* read serves it. */
const PREVIEWED = {
  orgs: { table: 'roster_orgs', resource: 'org', where: ['t.sourced_id IN (SELECT id FROM tree)'], order: 't.ordinal' },
  schools: {
    table: 'roster_orgs',
    resource: 'org',
    where: [`t.type = 'school'`, 't.sourced_id IN (SELECT id FROM tree)'],
    order: 't.ordinal',
  },
  academicSessions: { table: 'roster_academic_sessions', resource: 'academicSession', where: [], order: 't.ordinal' },
  courses: { table: 'roster_courses', resource: 'course', where: [], order: 't.ordinal' },
  classes: { table: 'roster_classes', resource: 'class', where: [], order: 't.ordinal' },
  enrollments: { table: 'roster_enrollments', resource: 'enrollment', where: [], order: 't.ordinal' },
  users: { table: 'roster_users', resource: 'user', where: [], order: 't.ordinal' },
  students: { table: 'roster_users', resource: 'user', where: [`t.role_group = 'student'`], order: 't.ordinal' },
  teachers: { table: 'roster_users', resource: 'user', where: [`t.role_group = 'staff'`], order: 't.ordinal' },
  demographics: { table: 'roster_demographics', resource: 'demographics', where: [], order: 't.ordinal' },
  // Collections of gradebook objects leave deleted ones out (the API's plain reads do).
  lineItems: {
    table: 'gradebook_line_items',
    resource: 'lineItem',
    where: [`t.status = 'active'`],
    order: 't.sourced_id',
  },
  results: { table: 'gradebook_results', resource: 'result', where: [`t.status = 'active'`], order: 't.sourced_id' },
  resources: { table: 'roster_resources', resource: 'resource', where: [], order: 't.sourced_id' },
} as const;

export type PreviewedCollection = keyof typeof PREVIEWED;
export const PREVIEWED_COLLECTIONS = Object.keys(PREVIEWED) as PreviewedCollection[];

/** How many sourcedIds of each collection a preview shows. */
export const PREVIEW_SAMPLE = 5;
/** How many unmatched sourcedIds of a list a preview names. */
const UNMATCHED_SHOWN = 100;

export interface CollectionPreview {
  readonly count: number;
  /** The first sourcedIds in the API's default order. */
  readonly first: string[];
}

export interface SharingPreview {
  readonly collections: Record<PreviewedCollection, CollectionPreview>;
  /** Listed sourcedIds nothing in the roster matches (yet): schools that are no school of the tenant's tree, unknown classes. */
  readonly unmatched: { readonly schools: string[]; readonly classes: string[] };
}

/**
 * What an app would see under a spec, now: per collection the count the rostering API's getAll*
 * read would answer in `X-Total-Count` and its first sourcedIds, through the very conditions the
 * API applies (`visibleCondition`, the org tree, withheld classes, hidden deleted gradebook rows).
 */
@Injectable()
export class SharingPreviewer {
  constructor(
    private readonly pool: Pool,
    private readonly scopes: SharingScopes,
  ) {}

  async preview(tenantId: string, spec: SharingSpec): Promise<SharingPreview> {
    const canonical = canonicalSpec(spec);
    const scopeId = await this.scopes.scopeOf(tenantId, canonical);
    const collections = {} as Record<PreviewedCollection, CollectionPreview>;
    for (const name of PREVIEWED_COLLECTIONS)
      collections[name] = await this.collection(tenantId, scopeId, canonical, name);
    return { collections, unmatched: await this.unmatched(tenantId, canonical) };
  }

  private async collection(
    tenantId: string,
    scopeId: string | null,
    spec: SharingSpec,
    name: PreviewedCollection,
  ): Promise<CollectionPreview> {
    const c = PREVIEWED[name];
    if (withholdsClass(c.resource, spec.withhold)) return { count: 0, first: [] };
    const where = ['t.tenant_id = $1::uuid', ...c.where];
    const shared = scopeId === null ? undefined : visibleCondition(c.resource, '$2::bigint');
    if (shared) where.push(shared);
    const from = `FROM ${c.table} AS t WHERE ${where.join(' AND ')}`;
    const { rows } = await this.pool.query<{ n: string; first: string[] }>(
      `WITH RECURSIVE ${orgTreeCte('$1::uuid')}
       SELECT (SELECT count(*) ${from})::bigint AS n, ARRAY(SELECT t.sourced_id ${from} ORDER BY ${c.order} LIMIT ${PREVIEW_SAMPLE}) AS first`,
      scopeId === null ? [tenantId] : [tenantId, scopeId],
    );
    return { count: Number(rows[0]?.n ?? 0), first: rows[0]?.first ?? [] };
  }

  private async unmatched(tenantId: string, spec: SharingSpec): Promise<SharingPreview['unmatched']> {
    const out = { schools: [] as string[], classes: [] as string[] };
    if (spec.mode === 'schools' && spec.schools.length > 0) {
      const { rows } = await this.pool.query<{ id: string }>(
        `WITH RECURSIVE ${orgTreeCte('$1::uuid')}
         SELECT x.id FROM unnest($2::text[]) AS x(id)
          WHERE NOT EXISTS (SELECT 1 FROM roster_orgs AS o WHERE o.tenant_id = $1::uuid AND o.sourced_id = x.id AND o.type = 'school' AND o.sourced_id IN (SELECT id FROM tree))
          ORDER BY 1 LIMIT ${UNMATCHED_SHOWN}`,
        [tenantId, spec.schools],
      );
      out.schools = rows.map((r) => r.id);
    }
    if (spec.mode === 'classes' && spec.classes.length > 0) {
      const { rows } = await this.pool.query<{ id: string }>(
        `SELECT x.id FROM unnest($2::text[]) AS x(id)
          WHERE NOT EXISTS (SELECT 1 FROM roster_classes AS k WHERE k.tenant_id = $1::uuid AND k.sourced_id = x.id)
          ORDER BY 1 LIMIT ${UNMATCHED_SHOWN}`,
        [tenantId, spec.classes],
      );
      out.classes = rows.map((r) => r.id);
    }
    return out;
  }
}
