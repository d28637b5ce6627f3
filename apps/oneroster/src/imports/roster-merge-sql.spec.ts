import { FILE_LAYOUTS, ROSTER_FILE_TYPES } from './csv-layout';
import { copyValue, textArrayLiteral } from './copy-in';
import { bulkTombstoneSql, copyDirectSql, copyStagingSql, countNewSql, createStagingSql, insertNewSql, reassignOrdinalsSql, updateChangedSql } from './roster-merge-sql';

const columns = (sql: string) => /\((.*)\)/.exec(sql)![1]!.split(', ');

describe('import SQL', () => {
  it.each(ROSTER_FILE_TYPES)('for %s stays parameterised and quotes identifiers', (type) => {
    const layout = FILE_LAYOUTS[type];
    for (const sql of [createStagingSql(layout), copyStagingSql(layout), copyDirectSql(layout), updateChangedSql(layout), insertNewSql(layout), countNewSql(layout), bulkTombstoneSql(layout), reassignOrdinalsSql(layout)]) {
      expect(sql).not.toMatch(/'[^']*(usr|org|cls)-/); // no data inlined
    }
    const staged = columns(createStagingSql(layout)).map((c) => c.split(' ')[0]);
    expect(columns(copyStagingSql(layout))).toEqual(staged);
    const direct = columns(copyDirectSql(layout));
    expect(direct.slice(0, staged.length - 2)).toEqual(staged.slice(2));
    expect(direct.slice(staged.length - 2)).toEqual(['"ordinal"', ...(layout.partitionOrdinal ? [`"${layout.partitionOrdinal.column}"`] : []), '"tenant_id"']);
  });

  it('compares every stored field, references included, before bumping dateLastModified', () => {
    const sql = updateChangedSql(FILE_LAYOUTS.users);
    const compared = /AND \((.*)\) IS DISTINCT FROM/.exec(sql)![1]!;
    for (const col of ['status', 'metadata', 'org_sourced_ids', 'agent_sourced_ids', 'user_ids', 'role', 'role_group', 'grades']) expect(compared).toContain(`t."${col}"`);
    expect(compared).not.toContain('date_last_modified');
    expect(sql).toContain('SET date_last_modified = coalesce(s.date_last_modified, $2)');
    expect(updateChangedSql(FILE_LAYOUTS.enrollments)).toContain('"primary" = s."primary"');
    expect(insertNewSql(FILE_LAYOUTS.users)).toContain('PARTITION BY _by');
    expect(insertNewSql(FILE_LAYOUTS.users)).toMatch(/ORDER BY n\._ord$/);
  });

  it('number partitions where the contract asks for them', () => {
    expect(reassignOrdinalsSql(FILE_LAYOUTS.users)).toContain('PARTITION BY "role_group"');
    expect(reassignOrdinalsSql(FILE_LAYOUTS.academicSessions)).toContain('PARTITION BY "type"');
    expect(reassignOrdinalsSql(FILE_LAYOUTS.enrollments)).not.toContain('PARTITION');
    expect(reassignOrdinalsSql(FILE_LAYOUTS.orgs)).toContain('ORDER BY sourced_id COLLATE "C"');
  });

  it('write COPY text values and array literals PostgreSQL reads back exactly', () => {
    expect(copyValue(null)).toBe('\\N');
    expect(copyValue(true)).toBe('t');
    expect(copyValue(7)).toBe('7');
    expect(copyValue('plain')).toBe('plain');
    expect(copyValue('a\tb\nc\\d\r')).toBe('a\\tb\\nc\\\\d\\r');
    expect(textArrayLiteral([])).toBe('{}');
    expect(textArrayLiteral(['a b', 'say "hi"', 'back\\slash', 'NULL'])).toBe('{"a b","say \\"hi\\"","back\\\\slash","NULL"}');
  });
});
