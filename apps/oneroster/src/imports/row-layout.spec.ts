import { FILE_LAYOUTS, ROSTER_FILE_TYPES, type FileLayout } from './csv-layout';
import { STAGING_PREFIX, stagedDataColumns } from './roster-merge-sql';
import { DATA_START, LINE, METADATA, MODIFIED, RowLayout, SOURCED_ID, STATUS, TOMBSTONE } from './row-layout';

describe('RowLayout', () => {
  it('names the staging prefix slots in table order, metadata last (the direct COPY sends metadata and the data from there on)', () => {
    expect([LINE, TOMBSTONE, SOURCED_ID, STATUS, MODIFIED, METADATA].map((i) => STAGING_PREFIX[i]!.name)).toEqual([
      '_line',
      '_tombstone',
      'sourced_id',
      'status',
      'date_last_modified',
      'metadata',
    ]);
    expect(METADATA + 1).toBe(DATA_START);
    expect(DATA_START).toBe(STAGING_PREFIX.length);
  });

  it.each(ROSTER_FILE_TYPES)('%s: a slot per staged column, in the staging table order', (type) => {
    const layout = FILE_LAYOUTS[type];
    const rl = new RowLayout(layout, false);
    const data = stagedDataColumns(layout);
    expect(rl.stagedWidth).toBe(DATA_START + data.length);
    expect(rl.width).toBe(rl.stagedWidth);
    expect(data.map((c) => rl.slot(c.name))).toEqual(data.map((_, i) => DATA_START + i));
    layout.columns.forEach((c, i) => expect(rl.columnSlots[i]).toBe(c.db ? rl.slot(c.db) : -1));
    expect([rl.ordinal, rl.partitionOrdinal, rl.partitionKey]).toEqual([-1, -1, -1]);
    expect(rl.newRow()).toHaveLength(rl.width);
  });

  it('users: password is not stored, role_group, roles and the primary org are derived, and a direct load adds the ordinal and the group ordinal', () => {
    const users = FILE_LAYOUTS.users;
    const rl = new RowLayout(users, true);
    expect(rl.columnSlots[users.columns.findIndex((c) => c.name === 'password')]).toBe(-1);
    expect(rl.derived).toEqual([
      { slot: rl.stagedWidth - 3, from: [rl.slot('role')], column: users.derived![0] },
      { slot: rl.stagedWidth - 2, from: [rl.slot('role'), rl.slot('org_sourced_ids')], column: users.derived![1] },
      { slot: rl.stagedWidth - 1, from: [rl.slot('org_sourced_ids')], column: users.derived![2] },
    ]);
    expect(rl.slot('role_group')).toBe(rl.stagedWidth - 3);
    expect(rl.width).toBe(rl.stagedWidth + 2);
    expect([rl.ordinal, rl.partitionOrdinal, rl.partitionKey]).toEqual([
      rl.stagedWidth,
      rl.stagedWidth + 1,
      rl.slot('role_group'),
    ]);
    expect(new RowLayout(FILE_LAYOUTS.courses, true)).toMatchObject({
      ordinal: FILE_LAYOUTS.courses.columns.length + DATA_START,
      partitionOrdinal: -1,
    });
  });

  it('finds slots by header name (the prefix and stored columns) and refuses names the file does not stage', () => {
    const rl = new RowLayout(FILE_LAYOUTS.enrollments, false);
    expect(rl.slotOf('sourcedId')).toBe(SOURCED_ID);
    expect(rl.slotOf('dateLastModified')).toBe(MODIFIED);
    expect(rl.slotOf('schoolSourcedId')).toBe(rl.slot('school_sourced_id'));
    expect(rl.slotsOf({ cls: 'classSourcedId', end: 'endDate' })).toEqual({
      cls: rl.slot('class_sourced_id'),
      end: rl.slot('end_date'),
    });
    expect(() => rl.slotOf('startDate')).toThrow('enrollments.csv stores no column startDate');
    expect(() => new RowLayout(FILE_LAYOUTS.users, false).slotOf('password')).toThrow(
      'users.csv stores no column password',
    );
    expect(() => rl.slot('ordinal')).toThrow('enrollments.csv stages no column ordinal');
  });

  it('a derived column may read several columns, in the order named', () => {
    const layout: FileLayout = {
      ...FILE_LAYOUTS.users,
      partitionOrdinal: undefined,
      derived: [
        {
          db: 'display_name',
          pg: 'text',
          from: ['familyName', 'givenName'],
          compute: (v) => `${String(v[0])}, ${String(v[1])}`,
        },
      ],
    };
    const rl = new RowLayout(layout, false);
    expect(rl.derived[0]).toMatchObject({
      slot: rl.slot('display_name'),
      from: [rl.slot('family_name'), rl.slot('given_name')],
    });
  });
});
