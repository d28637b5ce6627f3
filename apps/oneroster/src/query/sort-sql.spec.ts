import type { SortSpec } from '@edu/oneroster-query';
import { ROSTER_TABLES } from './roster-tables';
import { sortToSql } from './sort-sql';

const spec = (
  field: string,
  kind: SortSpec['kind'],
  direction: SortSpec['direction'] = 'asc',
  requested = true,
): SortSpec => ({ field, kind, direction, requested });

describe('sortToSql', () => {
  it('uses the import ordinal for the default order and for sourcedId', () => {
    expect(sortToSql(ROSTER_TABLES.user, spec('sourcedId', 'string', 'asc', false))).toEqual({
      orderBy: 't.ordinal ASC',
      isDefaultOrder: true,
    });
    expect(sortToSql(ROSTER_TABLES.user, spec('sourcedId', 'string', 'desc'))).toEqual({
      orderBy: 't.ordinal DESC',
      isDefaultOrder: true,
    });
  });

  it('sorts human text case-insensitively in code-point order with the ordinal tie-breaker', () => {
    expect(sortToSql(ROSTER_TABLES.user, spec('familyName', 'string'))).toEqual({
      orderBy: 'lower(t."family_name") COLLATE "C" ASC, t.ordinal ASC',
      isDefaultOrder: false,
    });
  });

  it('sorts enums and years by their text, dates and flags natively, in the requested direction', () => {
    expect(sortToSql(ROSTER_TABLES.user, spec('role', 'enum', 'desc')).orderBy).toBe(
      't."role" COLLATE "C" DESC, t.ordinal DESC',
    );
    expect(sortToSql(ROSTER_TABLES.academicSession, spec('schoolYear', 'year')).orderBy).toBe(
      't."school_year" COLLATE "C" ASC, t.ordinal ASC',
    );
    expect(sortToSql(ROSTER_TABLES.academicSession, spec('startDate', 'date')).orderBy).toBe(
      't."start_date" ASC, t.ordinal ASC',
    );
    expect(sortToSql(ROSTER_TABLES.user, spec('dateLastModified', 'datetime', 'desc')).orderBy).toBe(
      't."date_last_modified" DESC, t.ordinal DESC',
    );
    expect(sortToSql(ROSTER_TABLES.enrollment, spec('primary', 'boolean')).orderBy).toBe(
      't."primary" ASC, t.ordinal ASC',
    );
  });

  it('falls back to the default order for fields that are not sortable', () => {
    expect(sortToSql(ROSTER_TABLES.user, spec('orgs', 'guidRefList'))).toEqual({
      orderBy: 't.ordinal ASC',
      isDefaultOrder: true,
    });
    expect(sortToSql(ROSTER_TABLES.user, spec('nope', 'string'))).toEqual({
      orderBy: 't.ordinal ASC',
      isDefaultOrder: true,
    });
  });

  it('uses the C-collated sourced_id for the default order and tie-breaker of tables without ordinals', () => {
    expect(sortToSql(ROSTER_TABLES.result, spec('sourcedId', 'string', 'desc', false))).toEqual({
      orderBy: 't.sourced_id DESC',
      isDefaultOrder: true,
    });
    expect(sortToSql(ROSTER_TABLES.result, spec('score', 'number', 'desc')).orderBy).toBe(
      't."score" DESC, t.sourced_id DESC',
    );
    expect(sortToSql(ROSTER_TABLES.lineItem, spec('dueDate', 'datetime')).orderBy).toBe(
      't."due_date" ASC, t.sourced_id ASC',
    );
    expect(sortToSql(ROSTER_TABLES.result, spec('scoreStatus', 'enum')).orderBy).toBe(
      't."score_status" COLLATE "C" ASC, t.sourced_id ASC',
    );
    expect(sortToSql(ROSTER_TABLES.resource, spec('title', 'string')).orderBy).toBe(
      'lower(t."title") COLLATE "C" ASC, t.sourced_id ASC',
    );
  });
});
