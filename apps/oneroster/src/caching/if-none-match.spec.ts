import { entityTag, normaliseQuery, type RepresentationInputs } from './entity-tags';
import { holds, parseIfNoneMatch } from './if-none-match';

const TAG = '"abc-123_XYZ"';

describe('If-None-Match (RFC 9110 §13.1.2)', () => {
  it('matches a listed tag, strong or weak, anywhere in the list', () => {
    expect(holds(parseIfNoneMatch(TAG), TAG)).toBe(true);
    expect(holds(parseIfNoneMatch(`W/${TAG}`), TAG)).toBe(true);
    expect(holds(parseIfNoneMatch(`"other", W/"more" ,${TAG}`), TAG)).toBe(true);
    expect(holds(parseIfNoneMatch(['"other"', TAG]), TAG)).toBe(true);
  });

  it('does not match other tags, unquoted tags or a prefix of the tag', () => {
    expect(holds(parseIfNoneMatch('"other"'), TAG)).toBe(false);
    expect(holds(parseIfNoneMatch('abc-123_XYZ'), TAG)).toBe(false);
    expect(holds(parseIfNoneMatch('"abc-123"'), TAG)).toBe(false);
    expect(holds(parseIfNoneMatch('w/"abc-123_XYZ"'), TAG)).toBe(false);
  });

  it('reads * as any representation, and junk or absence as no condition', () => {
    expect(parseIfNoneMatch('*')).toEqual({ any: true, tags: new Set() });
    expect(holds(parseIfNoneMatch('*'), TAG)).toBe(true);
    expect(parseIfNoneMatch(undefined)).toBeUndefined();
    expect(parseIfNoneMatch('')).toBeUndefined();
    expect(parseIfNoneMatch('garbage, "unterminated')).toBeUndefined();
  });
});

describe('entity tags', () => {
  const inputs: RepresentationInputs = {
    publicBase: 'https://roster.test',
    apiVersion: 'v1p1',
    tenantId: 't1',
    scopes: ['b', 'a'],
    rootOrgSourcedId: null,
    output: { dateMode: 'compact' },
    sharing: 'everything',
    rosterVersion: '3',
    gradebookVersion: null,
    path: '/ims/oneroster/v1p1/users',
    query: 'limit=5',
  };

  it('is a quoted strong tag, the same for the same inputs whatever the scope order', () => {
    expect(entityTag(inputs)).toMatch(/^"[A-Za-z0-9_-]{43}"$/);
    expect(entityTag({ ...inputs, scopes: ['a', 'b'] })).toBe(entityTag(inputs));
  });

  it('changes with each input', () => {
    const variants: Partial<RepresentationInputs>[] = [
      { publicBase: 'https://other.test' },
      { apiVersion: 'v1p2' },
      { tenantId: 't2' },
      { scopes: ['a'] },
      { rootOrgSourcedId: 'org-1' },
      { output: { dateMode: 'iso8601' } },
      { sharing: 'classes-of-maths' },
      { rosterVersion: '4' },
      { gradebookVersion: '0' },
      { path: '/ims/oneroster/v1p1/users/u1' },
      { query: 'limit=6' },
    ];
    const tags = new Set(variants.map((v) => entityTag({ ...inputs, ...v })));
    expect(tags.size).toBe(variants.length);
    expect(tags.has(entityTag(inputs))).toBe(false);
  });

  it('normalises the query: order of names, encodings of the same text', () => {
    expect(normaliseQuery('/users?offset=0&limit=5')).toBe(normaliseQuery('/users?limit=5&offset=0'));
    expect(normaliseQuery("/users?filter=familyName%3D'A%20B'")).toBe(normaliseQuery("/users?filter=familyName='A+B'"));
    expect(normaliseQuery('/users?fields=a&fields=b')).not.toBe(normaliseQuery('/users?fields=b&fields=a'));
    expect(normaliseQuery('/users')).toBe('');
  });
});
