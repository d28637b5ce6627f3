import { buildLinkHeader, encodeQueryComponent, pageLinks, pickLinkParams } from './link-header';

const BASE = 'https://h/ims/oneroster/v1p1/users';
const offsets = (window: { offset: number; limit: number; total: number }): Record<string, number> =>
  Object.fromEntries(pageLinks(BASE, {}, window).map((l) => [l.rel, l.offset]));

describe('pageLinks', () => {
  it('omits prev on the first page', () => {
    expect(offsets({ offset: 0, limit: 3, total: 10 })).toEqual({ first: 0, next: 3, last: 9 });
  });

  it('has all four links on a middle page (reference example)', () => {
    expect(offsets({ offset: 3, limit: 3, total: 10 })).toEqual({ first: 0, prev: 0, next: 6, last: 9 });
  });

  it('omits next on the last page', () => {
    expect(offsets({ offset: 9, limit: 3, total: 10 })).toEqual({ first: 0, prev: 6, last: 9 });
  });

  it('handles a total that is a multiple of the limit', () => {
    expect(offsets({ offset: 0, limit: 5, total: 10 })).toEqual({ first: 0, next: 5, last: 5 });
    expect(offsets({ offset: 5, limit: 5, total: 10 })).toEqual({ first: 0, prev: 0, last: 5 });
  });

  it('handles a total that is not a multiple of the limit', () => {
    expect(offsets({ offset: 100, limit: 100, total: 317 })).toEqual({ first: 0, prev: 0, next: 200, last: 300 });
  });

  it('handles total 0 and a single page', () => {
    expect(offsets({ offset: 0, limit: 100, total: 0 })).toEqual({ first: 0, last: 0 });
    expect(offsets({ offset: 0, limit: 100, total: 1 })).toEqual({ first: 0, last: 0 });
    expect(offsets({ offset: 0, limit: 100, total: 100 })).toEqual({ first: 0, last: 0 });
  });

  it('clamps prev at 0 for an offset that is not a multiple of the limit', () => {
    expect(offsets({ offset: 2, limit: 3, total: 10 })).toEqual({ first: 0, prev: 0, next: 5, last: 9 });
  });

  it('handles an offset past the end', () => {
    expect(offsets({ offset: 500, limit: 100, total: 10 })).toEqual({ first: 0, prev: 400, last: 0 });
  });

  it('rejects impossible windows', () => {
    expect(() => pageLinks(BASE, {}, { offset: 0, limit: 0, total: 1 })).toThrow(RangeError);
    expect(() => pageLinks(BASE, {}, { offset: -1, limit: 1, total: 1 })).toThrow(RangeError);
    expect(() => pageLinks(BASE, {}, { offset: 0, limit: 1, total: -1 })).toThrow(RangeError);
    expect(() => pageLinks(BASE, {}, { offset: 0.5, limit: 1, total: 1 })).toThrow(RangeError);
  });
});

describe('buildLinkHeader', () => {
  it('renders RFC 8288 entries on one line', () => {
    expect(buildLinkHeader(BASE, {}, { offset: 3, limit: 3, total: 10 })).toBe(
      [
        `<${BASE}?limit=3&offset=0>; rel="first"`,
        `<${BASE}?limit=3&offset=0>; rel="prev"`,
        `<${BASE}?limit=3&offset=6>; rel="next"`,
        `<${BASE}?limit=3&offset=9>; rel="last"`,
      ].join(', '),
    );
  });

  it('preserves and percent-encodes the other parameters', () => {
    const header = buildLinkHeader(
      BASE,
      {
        filter: "familyName='O''Brien' AND dateLastModified>'2024-01-31T10:00:00+01:00'",
        data_field: 'familyName',
        orderBy: 'desc',
        fields: 'sourcedId,familyName',
      },
      { offset: 0, limit: 2, total: 3 },
    );
    const next = /<([^>]+)>; rel="next"/.exec(header)?.[1];
    expect(next).toBe(
      `${BASE}?limit=2&offset=2` +
        '&filter=familyName%3D%27O%27%27Brien%27%20AND%20dateLastModified%3E%272024-01-31T10%3A00%3A00%2B01%3A00%27' +
        '&data_field=familyName&orderBy=desc&fields=sourcedId%2CfamilyName',
    );
    const url = new URL(next as string);
    expect(url.searchParams.get('filter')).toBe(
      "familyName='O''Brien' AND dateLastModified>'2024-01-31T10:00:00+01:00'",
    );
    expect(url.searchParams.get('fields')).toBe('sourcedId,familyName');
  });

  it('never contains characters that would break the header', () => {
    const header = buildLinkHeader(BASE, { filter: "email~'a>b<c,d;e\"f'" }, { offset: 0, limit: 1, total: 2 });
    for (const link of header.split(', ')) expect(link).toMatch(/^<[^<>"\s,;]+>; rel="(first|next|last)"$/);
  });

  it('replaces limit and offset given among the parameters', () => {
    const header = buildLinkHeader(
      BASE,
      { limit: '999', OFFSET: '5', sort: 'givenName' },
      { offset: 0, limit: 10, total: 5 },
    );
    expect(header).toBe(
      `<${BASE}?limit=10&offset=0&sort=givenName>; rel="first", <${BASE}?limit=10&offset=0&sort=givenName>; rel="last"`,
    );
  });

  it('drops any query or fragment on the base URL and skips undefined values', () => {
    expect(
      buildLinkHeader(`${BASE}?limit=5&offset=10#x`, { filter: undefined }, { offset: 0, limit: 5, total: 5 }),
    ).toBe(`<${BASE}?limit=5&offset=0>; rel="first", <${BASE}?limit=5&offset=0>; rel="last"`);
  });

  it('repeats array-valued parameters', () => {
    expect(buildLinkHeader(BASE, { x: ['1', '2'] }, { offset: 0, limit: 5, total: 1 })).toContain(
      '?limit=5&offset=0&x=1&x=2>',
    );
  });
});

describe('pickLinkParams', () => {
  it('keeps the result-shaping parameters under their canonical names', () => {
    expect(
      pickLinkParams({
        FILTER: "role='student'",
        sort: 'familyName',
        orderby: 'desc',
        fields: ['givenName', 'familyName'],
        limit: '5',
        offset: '10',
        continuationToken: 'junk',
      }),
    ).toEqual({ filter: "role='student'", sort: 'familyName', orderBy: 'desc', fields: 'givenName,familyName' });
  });

  it('keeps data_field and sort both, as sent', () => {
    expect(pickLinkParams({ data_field: 'a', sort: 'b' })).toEqual({ data_field: 'a', sort: 'b' });
  });
});

describe('encodeQueryComponent', () => {
  it("encodes every reserved character, including ! ' ( ) *", () => {
    expect(encodeQueryComponent("a b+c&d=e'f(g)h*i!j~k/l?m#n%")).toBe(
      'a%20b%2Bc%26d%3De%27f%28g%29h%2Ai%21j~k%2Fl%3Fm%23n%25',
    );
  });
});
