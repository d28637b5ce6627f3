import { OneRosterQueryError } from '../errors';
import { getCatalog } from '../model/catalog';
import { parseCollectionQuery, parseSingleQuery } from './collection-query';
import type { RawQuery } from './raw-params';

function rejected(raw: RawQuery): OneRosterQueryError {
  try {
    parseCollectionQuery(raw, 'user');
  } catch (e) {
    if (e instanceof OneRosterQueryError) return e;
    throw e;
  }
  throw new Error(`expected ${JSON.stringify(raw)} to be rejected`);
}

describe('parseCollectionQuery', () => {
  it('applies every default', () => {
    expect(parseCollectionQuery({}, 'user')).toEqual({
      limit: 100,
      offset: 0,
      sort: { field: 'sourcedId', kind: 'string', direction: 'asc', requested: false },
      warnings: [],
    });
  });

  it('reads every parameter together', () => {
    const query = parseCollectionQuery(
      {
        limit: '10',
        offset: '20',
        filter: "role='student' AND dateLastModified>'20240801'",
        data_field: 'familyName',
        orderBy: 'DESC',
        fields: 'sourcedId,familyName',
      },
      'user',
    );
    expect(query).toMatchObject({
      limit: 10,
      offset: 20,
      sort: { field: 'familyName', direction: 'desc', requested: true },
      fields: ['sourcedId', 'familyName'],
      warnings: [],
      filter: {
        kind: 'and',
        left: { op: '=' },
        right: { op: '>', value: { kind: 'datetime', iso: '2024-08-01T00:00:00.000Z' } },
      },
    });
  });

  it.each(['0', '-1', '1001', 'abc', '1.5', ''])('rejects limit=%p with invaliddata', (limit) => {
    expect(rejected({ limit })).toMatchObject({ code: 'invaliddata', parameter: 'limit', httpStatus: 400 });
  });

  it.each(['-1', 'abc', ''])('rejects offset=%p with invaliddata', (offset) => {
    expect(rejected({ offset })).toMatchObject({ code: 'invaliddata', parameter: 'offset' });
  });

  it('rejects a bad filter with invalid_filter_field', () => {
    expect(rejected({ filter: "nickname='x'" })).toMatchObject({ code: 'invalid_filter_field', parameter: 'filter' });
    expect(rejected({ filter: "a='1' AND b='2' AND c='3'" }).code).toBe('invalid_filter_field');
  });

  it('ignores a blank filter', () => {
    expect(parseCollectionQuery({ filter: '' }, 'user').filter).toBeUndefined();
    expect(parseCollectionQuery({ filter: '   ' }, 'user').filter).toBeUndefined();
  });

  it('checks limit before offset before filter', () => {
    expect(rejected({ limit: '0', offset: 'x', filter: '?' }).parameter).toBe('limit');
    expect(rejected({ offset: 'x', filter: '?' }).parameter).toBe('offset');
  });

  it('collects sort and field warnings without failing', () => {
    const query = parseCollectionQuery({ sort: 'nickname', fields: 'givenName,shoeSize' }, 'user');
    expect(query.warnings.map((w) => [w.code, w.parameter])).toEqual([
      ['invalid_sort_field', 'sort'],
      ['invalid_selection_field', 'fields'],
    ]);
    expect(query.fields).toEqual(['givenName']);
  });

  it('ignores unknown parameters, including junk like "limit " and continuationToken', () => {
    expect(parseCollectionQuery({ 'limit ': 'abc', continuationToken: 'x', foo: ['a', 'b'] }, 'user').limit).toBe(100);
  });

  it('matches parameter names case-insensitively', () => {
    expect(parseCollectionQuery({ LIMIT: '5', Offset: '5', OrderBy: 'desc' }, 'user')).toMatchObject({
      limit: 5,
      offset: 5,
      sort: { direction: 'desc' },
    });
  });

  it('accepts a repeated parameter with identical values', () => {
    expect(
      parseCollectionQuery({ limit: ['5', '5'], filter: ["role='student'", "role='student'"] }, 'user'),
    ).toMatchObject({
      limit: 5,
      filter: { kind: 'predicate' },
    });
  });

  it('rejects repeated parameters with different values as invaliddata', () => {
    expect(rejected({ limit: ['5', '6'] })).toMatchObject({ code: 'invaliddata', parameter: 'limit' });
    expect(rejected({ offset: ['0', '100'] })).toMatchObject({ code: 'invaliddata', parameter: 'offset' });
    expect(rejected({ filter: ["role='student'", "status='active'"] })).toMatchObject({
      code: 'invaliddata',
      parameter: 'filter',
    });
    expect(rejected({ data_field: ['givenName', 'familyName'] })).toMatchObject({
      code: 'invaliddata',
      parameter: 'data_field',
    });
    expect(rejected({ orderBy: ['asc', 'desc'] })).toMatchObject({ code: 'invaliddata', parameter: 'orderBy' });
  });

  it('rejects structured values (a[b]=c) as invaliddata', () => {
    expect(rejected({ limit: { gt: '5' } })).toMatchObject({ code: 'invaliddata', parameter: 'limit' });
  });

  it('honours configured limits', () => {
    expect(parseCollectionQuery({}, 'user', { defaultLimit: 50 }).limit).toBe(50);
    expect(() => parseCollectionQuery({ limit: '600' }, 'user', { maxLimit: 500 })).toThrow(OneRosterQueryError);
  });

  it('validates against the requested class', () => {
    expect(parseCollectionQuery({ filter: "school.sourcedId='s'" }, 'class').filter).toBeDefined();
    expect(() => parseCollectionQuery({ filter: "school.sourcedId='s'" }, 'user')).toThrow(OneRosterQueryError);
  });
});

describe('parseSingleQuery', () => {
  it('reads only fields', () => {
    expect(parseSingleQuery({ fields: 'sourcedId,title' }, 'class')).toEqual({
      fields: ['sourcedId', 'title'],
      warnings: [],
    });
  });

  it('returns all fields when fields is absent', () => {
    expect(parseSingleQuery({}, 'class')).toEqual({ warnings: [] });
  });

  it('ignores collection parameters, even invalid ones', () => {
    expect(parseSingleQuery({ limit: 'abc', offset: '-1', filter: '???', sort: 'x' }, 'org')).toEqual({ warnings: [] });
  });

  it('warns about unknown selection fields', () => {
    expect(parseSingleQuery({ fields: 'name,bogus' }, 'org')).toMatchObject({
      fields: ['name'],
      warnings: [{ code: 'invalid_selection_field' }],
    });
  });
});

describe('v1.2 queries (strict: a success body has no room for warnings)', () => {
  const user = getCatalog('user', 'v1p2');

  it('refuses an unknown selection field as invalid_selection_field and a sort problem as invaliddata', () => {
    expect(() => parseCollectionQuery({ fields: 'sourcedId,nickname' }, user, { strict: true })).toThrow(
      expect.objectContaining({
        code: 'invalid_selection_field',
        parameter: 'fields',
        message: "Unknown field 'nickname' for user",
      }),
    );
    expect(() => parseCollectionQuery({ sort: 'nickname' }, user, { strict: true })).toThrow(
      expect.objectContaining({
        code: 'invaliddata',
        parameter: 'sort',
        message: "Unknown sort field 'nickname' for user",
      }),
    );
    expect(() => parseCollectionQuery({ orderBy: 'sideways' }, user, { strict: true })).toThrow(
      expect.objectContaining({ code: 'invaliddata', parameter: 'orderBy' }),
    );
    expect(() => parseSingleQuery({ fields: 'shoeSize' }, user, { strict: true })).toThrow(
      expect.objectContaining({ code: 'invalid_selection_field' }),
    );
    expect(
      parseCollectionQuery({ fields: 'roles,primaryOrg', sort: 'pronouns' }, user, { strict: true }),
    ).toMatchObject({ fields: ['roles', 'primaryOrg'], sort: { field: 'pronouns' } });
  });

  it('knows the v1.2 user: roles and primaryOrg instead of role and orgs', () => {
    expect(() => parseCollectionQuery({ filter: "role='teacher'" }, user)).toThrow(
      expect.objectContaining({ code: 'invalid_filter_field' }),
    );
    expect(parseCollectionQuery({ filter: "role='teacher'" }, 'user').filter).toBeDefined();
    const roles = parseCollectionQuery(
      { filter: "roles.org='s1' AND roles.role='districtAdministrator'" },
      user,
    ).filter;
    expect(roles).toMatchObject({
      kind: 'and',
      left: { field: { path: 'roles.org.sourcedId', multi: true } },
      right: { value: { kind: 'enum', value: 'districtAdministrator' } },
    });
    expect(parseCollectionQuery({ filter: "roles='ext:coach'" }, user).filter).toMatchObject({
      field: { path: 'roles.role' },
      value: { kind: 'enum', value: 'ext:coach' },
    });
    expect(parseCollectionQuery({ filter: "roles.role='wizard'" }, user).filter).toMatchObject({
      value: { kind: 'unlisted' },
    });
    expect(parseCollectionQuery({ filter: "roles.beginDate='2024-08-01'" }, user).filter).toMatchObject({
      field: { valueKind: 'date' },
    });
    expect(() => parseCollectionQuery({ filter: "userProfiles.vendorId='x'" }, user)).toThrow(
      expect.objectContaining({ code: 'invalid_filter_field' }),
    );
    expect(() => parseCollectionQuery({ filter: "roles.shoeSize='x'" }, user)).toThrow(
      expect.objectContaining({ code: 'invalid_filter_field' }),
    );
  });

  it('accepts ext: values of extensible enumerations in v1.2 only', () => {
    const org12 = parseCollectionQuery({ filter: "type='ext:trust'" }, getCatalog('org', 'v1p2')).filter;
    expect(org12).toMatchObject({ value: { kind: 'enum', value: 'ext:trust' } });
    expect(parseCollectionQuery({ filter: "type='ext:trust'" }, 'org').filter).toMatchObject({
      value: { kind: 'unlisted' },
    });
    expect(parseCollectionQuery({ filter: "type='ext:'" }, getCatalog('org', 'v1p2')).filter).toMatchObject({
      value: { kind: 'unlisted' },
    });
  });
});
