/**
 * Events as a deployment receives them: each object as OneRoster 1.2 shows it to this deployment
 * (its current state, withheld fields left out), the former values of the fields an update
 * changed under their 1.2 names, and only objects its sharing lets it see.
 */
import { Injectable } from '@nestjs/common';
import { visibleCondition } from '@edu/sharing';
import { quoteIdent, type ColumnSource, type HrefRoots } from '../query/roster-tables';
import { tableOf } from '../query/roster-tables-v1p2';
import { RosterDb } from '../db/roster-db';
import { defaultFields, refWriter, rowSerializer } from '../roster/roster-serializer';
import { V1P2_OUTPUT } from '../tenancy/tenant-access.service';
import { withheldOf, type RosterVisibility } from '../tenancy/roster-sharing';
import { resourceOf } from './feed-objects';

/** The rows of one collection a page of events names, as the deployment sees them. */
export type SeenRows = ReadonlyMap<string, string>;

@Injectable()
export class EventRenderer {
  constructor(private readonly db: RosterDb) {}

  /**
   * The 1.2 JSON of the named objects the deployment may see now, by sourcedId (tombstones
   * included: their events are deletes); objects it may not see are absent.
   */
  async visibleRows(
    tenantId: string,
    object: string,
    ids: readonly string[],
    view: RosterVisibility,
    roots: HrefRoots,
  ): Promise<SeenRows> {
    const resource = resourceOf(object);
    const table = tableOf(resource, 'v1p2');
    const fields = defaultFields(table, withheldOf(view, resource));
    const serializer = rowSerializer(table, fields, { ...V1P2_OUTPUT, hrefRoots: roots });
    const visible = view.scopeId === null ? undefined : visibleCondition(resource, '$3::bigint', 't', 'probe');
    // The id comes after the serializer's columns: value `serializer.width` of each row.
    const rows = await this.db.valueRows(
      `SELECT ${serializer.columns}, t.sourced_id AS "_id" FROM ${quoteIdent(table.table)} AS t
        WHERE t.tenant_id = $1::uuid AND t.sourced_id = ANY($2::text[])${visible ? ` AND ${visible}` : ''}`,
      view.scopeId === null ? [tenantId, [...ids]] : [tenantId, [...ids], view.scopeId],
    );
    return new Map(rows.map((r) => [r[serializer.width] as string, serializer.write(r)]));
  }

  /** The former values of changed fields, by 1.2 field name; withheld and internal columns left out. */
  previous(
    object: string,
    stored: Record<string, unknown> | null,
    view: RosterVisibility,
    roots: HrefRoots,
  ): Record<string, unknown> | null {
    if (!stored) return null;
    const resource = resourceOf(object);
    const table = tableOf(resource, 'v1p2');
    const withheld = withheldOf(view, resource);
    const out: Record<string, unknown> = {};
    for (const [field, source] of Object.entries(table.columns)) {
      if (withheld.has(field) || !('column' in source) || !(source.column in stored)) continue;
      out[field] = formerValue(source, stored[source.column], roots);
    }
    return Object.keys(out).length > 0 ? out : null;
  }
}

/** A stored value (as `to_jsonb` wrote it) in its 1.2 answer form. */
function formerValue(source: ColumnSource, value: unknown, roots: HrefRoots): unknown {
  if (value === null || value === undefined) return null;
  switch (source.kind) {
    case 'timestamptz':
      return new Date(value as string).toISOString();
    case 'boolean':
      return value ? 'true' : 'false';
    case 'ref':
      return JSON.parse(refWriter(source.ref, { ...V1P2_OUTPUT, hrefRoots: roots })(String(value)));
    case 'refArray': {
      const ref = refWriter(source.ref, { ...V1P2_OUTPUT, hrefRoots: roots });
      return Array.isArray(value) ? value.map((id) => JSON.parse(ref(String(id)))) : null;
    }
    default:
      return value;
  }
}
