import { parseSort } from './sort-params';

describe('parseSort', () => {
  it('defaults to sourcedId ascending, not marked as requested', () => {
    expect(parseSort({}, 'user')).toEqual({
      sort: { field: 'sourcedId', kind: 'string', direction: 'asc', requested: false },
      warnings: [],
    });
  });

  it('reads data_field', () => {
    expect(parseSort({ data_field: 'familyName' }, 'user').sort).toEqual({
      field: 'familyName',
      kind: 'string',
      direction: 'asc',
      requested: true,
    });
  });

  it('accepts sort as a synonym', () => {
    expect(parseSort({ sort: 'dateLastModified', orderBy: 'desc' }, 'user')).toEqual({
      sort: { field: 'dateLastModified', kind: 'datetime', direction: 'desc', requested: true },
      warnings: [],
    });
  });

  it('uses data_field when both are given, warning about the ignored sort', () => {
    const { sort, warnings } = parseSort({ data_field: 'givenName', sort: 'familyName' }, 'user');
    expect(sort.field).toBe('givenName');
    expect(warnings).toEqual([
      expect.objectContaining({ code: 'invalid_sort_field', parameter: 'sort', values: ['familyName'] }),
    ]);
  });

  it('does not warn when both name the same field', () => {
    expect(parseSort({ data_field: 'givenName', sort: 'GIVENNAME' }, 'user').warnings).toEqual([]);
  });

  it('matches the field name case-insensitively and trims it', () => {
    expect(parseSort({ data_field: ' FamilyName ' }, 'user').sort.field).toBe('familyName');
  });

  it('falls back to the default order with a warning for an unknown field', () => {
    const { sort, warnings } = parseSort({ data_field: 'nickname', orderBy: 'desc' }, 'user');
    expect(sort).toEqual({ field: 'sourcedId', kind: 'string', direction: 'desc', requested: false });
    expect(warnings).toEqual([
      {
        code: 'invalid_sort_field',
        parameter: 'data_field',
        message: "Unknown sort field 'nickname' for user; default order used",
        problem: "Unknown sort field 'nickname' for user",
        values: ['nickname'],
      },
    ]);
  });

  it.each(['grades', 'orgs', 'metadata', 'userIds', 'password', 'school.sourcedId', 'metadata.x'])(
    'warns for the non-sortable field %s',
    (name) => {
      const { sort, warnings } = parseSort({ sort: name }, 'user');
      expect(sort.requested).toBe(false);
      expect(warnings).toEqual([
        expect.objectContaining({ code: 'invalid_sort_field', parameter: 'sort', values: [name] }),
      ]);
    },
  );

  it('treats a blank sort field as absent', () => {
    expect(parseSort({ data_field: '  ' }, 'user')).toEqual(parseSort({}, 'user'));
  });

  it.each([
    ['asc', 'asc'],
    ['ASC', 'asc'],
    ['acs', 'asc'],
    ['ACS', 'asc'],
    ['desc', 'desc'],
    ['DESC', 'desc'],
    ['Desc', 'desc'],
    ['', 'asc'],
  ] as const)('reads orderBy %p as %s', (orderBy, direction) => {
    const result = parseSort({ data_field: 'username', orderBy }, 'user');
    expect(result.sort.direction).toBe(direction);
    expect(result.warnings).toEqual([]);
  });

  it('accepts orderby in any letter case', () => {
    expect(parseSort({ orderby: 'desc' }, 'user').sort.direction).toBe('desc');
  });

  it('warns and sorts ascending for an unknown orderBy', () => {
    const { sort, warnings } = parseSort({ data_field: 'username', orderBy: 'down' }, 'user');
    expect(sort).toMatchObject({ field: 'username', direction: 'asc', requested: true });
    expect(warnings).toEqual([
      expect.objectContaining({ code: 'invalid_sort_field', parameter: 'orderBy', values: ['down'] }),
    ]);
  });

  it('sorts by scalar fields of every kind', () => {
    expect(parseSort({ sort: 'startDate' }, 'academicSession').sort.kind).toBe('date');
    expect(parseSort({ sort: 'schoolYear' }, 'academicSession').sort.kind).toBe('year');
    expect(parseSort({ sort: 'type' }, 'org').sort.kind).toBe('enum');
    expect(parseSort({ sort: 'enabledUser' }, 'user').sort.kind).toBe('boolean');
  });
});
