import { parseFieldList, parseFields } from './fields-param';

describe('parseFields', () => {
  it('returns undefined (all fields) when absent', () => {
    expect(parseFields({}, 'user')).toEqual({ fields: undefined, warnings: [] });
  });

  it('reads a comma-separated list in request order', () => {
    expect(parseFields({ fields: 'givenName,familyName,sourcedId' }, 'user')).toEqual({
      fields: ['givenName', 'familyName', 'sourcedId'],
      warnings: [],
    });
  });

  it('ignores blanks and spaces, canonicalises case and drops duplicates', () => {
    expect(parseFields({ fields: ' givenName ,, FAMILYNAME,givenName, ' }, 'user').fields).toEqual([
      'givenName',
      'familyName',
    ]);
  });

  it('drops unknown names with an invalid_selection_field warning', () => {
    expect(parseFields({ fields: 'givenName,nickname,shoeSize,nickname' }, 'user')).toEqual({
      fields: ['givenName'],
      warnings: [
        {
          code: 'invalid_selection_field',
          parameter: 'fields',
          message: "Unknown fields 'nickname', 'shoeSize' for user ignored",
          problem: "Unknown fields 'nickname', 'shoeSize' for user",
          values: ['nickname', 'shoeSize'],
        },
      ],
    });
  });

  it('returns all fields with the warning when no valid name remains', () => {
    const { fields, warnings } = parseFields({ fields: 'nickname' }, 'user');
    expect(fields).toBeUndefined();
    expect(warnings).toEqual([
      expect.objectContaining({
        code: 'invalid_selection_field',
        message: "Unknown field 'nickname' for user ignored; all fields returned",
      }),
    ]);
  });

  it('treats dotted names as unknown (top-level fields only)', () => {
    expect(parseFields({ fields: 'school.sourcedId,title' }, 'class')).toMatchObject({
      fields: ['title'],
      warnings: [{ values: ['school.sourcedId'] }],
    });
  });

  it('returns all fields, silently, for a list of blanks', () => {
    expect(parseFields({ fields: ' , ,' }, 'user')).toEqual({ fields: undefined, warnings: [] });
    expect(parseFields({ fields: '' }, 'user')).toEqual({ fields: undefined, warnings: [] });
  });

  it('joins a repeated fields parameter into one list', () => {
    expect(parseFields({ fields: ['givenName', 'familyName,givenName'] }, 'user').fields).toEqual([
      'givenName',
      'familyName',
    ]);
  });

  it('validates against the requested class', () => {
    expect(parseFieldList('title,classCode,username', 'class')).toMatchObject({
      fields: ['title', 'classCode'],
      warnings: [{ values: ['username'] }],
    });
  });
});
