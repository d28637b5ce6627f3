import { FILE_LAYOUTS, ROSTER_FILE_TYPES } from './csv-layout';
import { copyValue, firstOfTextArrayLiteral, parseTextArrayLiteral, textArrayLiteral } from './copy-in';
import {
  bulkTombstoneSql,
  bumpLinkOwnersSql,
  copyDirectSql,
  copyStagingSql,
  countNewSql,
  createStagingSql,
  deltaTombstoneSql,
  insertNewSql,
  reassignOrdinalsSql,
  snapshotLinksSql,
  updateChangedSql,
} from './roster-merge-sql';

const columns = (sql: string) => /\((.*)\)/.exec(sql)![1]!.split(', ');

describe('import SQL', () => {
  it.each(ROSTER_FILE_TYPES)('for %s stays parameterised and quotes identifiers', (type) => {
    const layout = FILE_LAYOUTS[type];
    const ordinal = layout.ordinals ? [copyDirectSql(layout), reassignOrdinalsSql(layout)] : [];
    for (const sql of [
      createStagingSql(layout),
      copyStagingSql(layout),
      updateChangedSql(layout),
      insertNewSql(layout),
      countNewSql(layout),
      bulkTombstoneSql(layout),
      ...ordinal,
    ]) {
      expect(sql).not.toMatch(/'[^']*(usr|org|cls)-/); // no data inlined
    }
    const staged = columns(createStagingSql(layout)).map((c) => c.split(' ')[0]);
    expect(columns(copyStagingSql(layout))).toEqual(staged);
    if (!layout.ordinals) {
      expect(insertNewSql(layout)).not.toContain('ordinal');
      expect(() => reassignOrdinalsSql(layout)).toThrow(TypeError);
      return;
    }
    const direct = columns(copyDirectSql(layout));
    expect(direct.slice(0, staged.length - 2)).toEqual(staged.slice(2));
    expect(direct.slice(staged.length - 2)).toEqual([
      '"ordinal"',
      ...(layout.partitionOrdinal ? [`"${layout.partitionOrdinal.column}"`] : []),
      '"tenant_id"',
    ]);
  });

  it('compares every stored field, references included, before bumping dateLastModified', () => {
    const sql = updateChangedSql(FILE_LAYOUTS.users);
    const compared = /AND \((.*)\) IS DISTINCT FROM/.exec(sql)![1]!;
    for (const col of [
      'status',
      'metadata',
      'org_sourced_ids',
      'agent_sourced_ids',
      'user_ids',
      'role',
      'role_group',
      'grades',
    ])
      expect(compared).toContain(`t."${col}"`);
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
    expect(textArrayLiteral(['a b', 'say "hi"', 'back\\slash', 'NULL'])).toBe(
      '{"a b","say \\"hi\\"","back\\\\slash","NULL"}',
    );
    for (const items of [[], ['a'], ['a b', 'say "hi"', 'back\\slash', 'NULL', '{x,y}', '']])
      expect(parseTextArrayLiteral(textArrayLiteral(items))).toEqual(items);
    for (const items of [[], ['a', 'b'], ['say "hi"', 'x'], ['back\\slash'], ['', 'x']])
      expect(firstOfTextArrayLiteral(textArrayLiteral(items))).toBe(items[0] ?? null);
  });

  it('never lets an import change or tombstone what apps wrote through the gradebook API', () => {
    for (const type of ['categories', 'lineItems', 'results'] as const) {
      const layout = FILE_LAYOUTS[type];
      for (const sql of [updateChangedSql(layout), bulkTombstoneSql(layout), deltaTombstoneSql(layout)])
        expect(sql).toContain('t.owner_app_id IS NULL');
    }
    expect(updateChangedSql(FILE_LAYOUTS.resources)).not.toContain('owner_app_id');
    expect(bulkTombstoneSql(FILE_LAYOUTS.users)).not.toContain('owner_app_id');
  });

  it("bumps a class's or course's dateLastModified when its set of active resource links changes", () => {
    expect(snapshotLinksSql(FILE_LAYOUTS.classResources)).toContain('"class_sourced_id" AS owner');
    const bump = bumpLinkOwnersSql(FILE_LAYOUTS.courseResources);
    expect(bump).toMatch(/^UPDATE "roster_courses" o SET date_last_modified = \$2/);
    expect(bump).toContain('a.targets IS DISTINCT FROM b.targets');
    expect(() => snapshotLinksSql(FILE_LAYOUTS.users)).toThrow(TypeError);
  });
});
