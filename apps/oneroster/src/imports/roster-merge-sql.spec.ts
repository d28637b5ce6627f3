import { FILE_LAYOUTS, ROSTER_FILE_TYPES } from './csv-layout';
import { pgArrayLiteral } from './roster-file-loader';
import { bulkTombstoneSql, createStagingSql, directInsertSql, mergeSql, reassignOrdinalsSql, stagingInsertSql } from './roster-merge-sql';

const maxParam = (sql: string) => Math.max(...[...sql.matchAll(/\$(\d+)/g)].map((m) => Number(m[1])));

describe('import SQL', () => {
  it.each(ROSTER_FILE_TYPES)('for %s stays parameterised and quotes identifiers', (type) => {
    const layout = FILE_LAYOUTS[type];
    for (const sql of [createStagingSql(layout), stagingInsertSql(layout), directInsertSql(layout), mergeSql(layout, true), mergeSql(layout, false), bulkTombstoneSql(layout), reassignOrdinalsSql(layout)]) {
      expect(sql).not.toMatch(/'[^']*(usr|org|cls)-/); // no data inlined
    }
    const stagedColumns = (createStagingSql(layout).match(/, "/g) ?? []).length + 1;
    expect(maxParam(stagingInsertSql(layout))).toBe(stagedColumns);
    expect(maxParam(directInsertSql(layout))).toBe(stagedColumns + (layout.partitionOrdinal ? 2 : 1) + 2);
  });

  it('compares every stored field, references included, before bumping dateLastModified', () => {
    const sql = mergeSql(FILE_LAYOUTS.users, true);
    const compared = /WHERE \((.*)\) IS DISTINCT FROM/.exec(sql)![1]!;
    for (const col of ['status', 'metadata', 'org_sourced_ids', 'agent_sourced_ids', 'user_ids', 'role', 'role_group', 'grades']) expect(compared).toContain(`t."${col}"`);
    expect(compared).not.toContain('date_last_modified');
    expect(sql).toContain('ON CONFLICT (tenant_id, sourced_id) DO UPDATE SET "date_last_modified" = EXCLUDED."date_last_modified"');
    expect(mergeSql(FILE_LAYOUTS.users, false)).not.toContain('ON CONFLICT');
    expect(mergeSql(FILE_LAYOUTS.enrollments, true)).toContain('"primary"');
  });

  it('number partitions where the contract asks for them', () => {
    expect(reassignOrdinalsSql(FILE_LAYOUTS.users)).toContain('PARTITION BY "role_group"');
    expect(reassignOrdinalsSql(FILE_LAYOUTS.academicSessions)).toContain('PARTITION BY "type"');
    expect(reassignOrdinalsSql(FILE_LAYOUTS.enrollments)).not.toContain('PARTITION');
    expect(reassignOrdinalsSql(FILE_LAYOUTS.orgs)).toContain('ORDER BY sourced_id COLLATE "C"');
  });

  it('build array literals PostgreSQL reads back exactly', () => {
    expect(pgArrayLiteral(['a', null, 'say "hi"', 'back\\slash', 'x,y', true, 3])).toBe('{"a",NULL,"say \\"hi\\"","back\\\\slash","x,y",true,3}');
    expect(pgArrayLiteral([])).toBe('{}');
    expect(pgArrayLiteral([new Date('2024-01-02T03:04:05.006Z')])).toBe('{"2024-01-02T03:04:05.006Z"}');
  });
});
