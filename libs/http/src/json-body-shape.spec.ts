import {
  assertJsonShape,
  JsonShapeError,
  MAX_JSON_CONTAINERS,
  MAX_JSON_DEPTH,
  MAX_JSON_MEMBERS,
  verifyJsonShape,
} from './json-body-shape';

const utf8 = (text: string) => Buffer.from(text, 'utf8');
const nested = (levels: number, inner = '') => '['.repeat(levels) + inner + ']'.repeat(levels);
const shapeOf = (text: string, limits = { maxDepth: 4, maxMembers: 3, maxContainers: 100 }) => {
  try {
    assertJsonShape(utf8(text), limits);
    return 'ok';
  } catch (err) {
    if (err instanceof JsonShapeError)
      return /deeper/.test(err.message) ? 'too deep' : /members/.test(err.message) ? 'too wide' : 'too many';
    throw err;
  }
};

describe('JSON body shape check', () => {
  it(`accepts ${MAX_JSON_DEPTH} levels and refuses one more, naming the limit`, () => {
    expect(() => assertJsonShape(utf8(nested(MAX_JSON_DEPTH)))).not.toThrow();
    expect(() => assertJsonShape(utf8(`{"a":${nested(MAX_JSON_DEPTH - 1)}}`))).not.toThrow();
    expect(() => assertJsonShape(utf8(nested(MAX_JSON_DEPTH + 1)))).toThrow(
      `The request body is JSON nested deeper than ${MAX_JSON_DEPTH} levels`,
    );
    expect(() => assertJsonShape(utf8(`{"a":${nested(MAX_JSON_DEPTH)}}`))).toThrow(JsonShapeError);
  });

  it(`accepts ${MAX_JSON_MEMBERS} members in one object or array and refuses one more`, () => {
    const items = (n: number) => `[${new Array(n).fill('0').join(',')}]`;
    const keys = (n: number) => `{${Array.from({ length: n }, (_, i) => `"k${i}":[1,2]`).join(',')}}`;
    expect(() => assertJsonShape(utf8(items(MAX_JSON_MEMBERS)))).not.toThrow();
    expect(() => assertJsonShape(utf8(keys(MAX_JSON_MEMBERS)))).not.toThrow();
    expect(() => assertJsonShape(utf8(items(MAX_JSON_MEMBERS + 1)))).toThrow(
      `The request body has a JSON object or array with more than ${MAX_JSON_MEMBERS} members`,
    );
    expect(() => assertJsonShape(utf8(keys(MAX_JSON_MEMBERS + 1)))).toThrow(JsonShapeError);
  });

  it(`accepts ${MAX_JSON_CONTAINERS} objects and arrays in a body and refuses one more`, () => {
    // 1 outer array + 100 arrays of 498 objects + `extra` objects = 49,901 + extra containers.
    const body = (extra: number) =>
      `[${[...new Array(100).fill(`[${new Array(498).fill('{}').join(',')}]`), ...new Array(extra).fill('{}')].join(',')}]`;
    expect(() => assertJsonShape(utf8(body(99)))).not.toThrow();
    expect(() => assertJsonShape(utf8(body(100)))).toThrow(
      `The request body has more than ${MAX_JSON_CONTAINERS} JSON objects and arrays`,
    );
    expect(
      shapeOf(`[${new Array(100).fill('[1]').join(',')}]`, { maxDepth: 4, maxMembers: 200, maxContainers: 100 }),
    ).toBe('too many');
    expect(
      shapeOf(`[${new Array(99).fill('[1]').join(',')}]`, { maxDepth: 4, maxMembers: 200, maxContainers: 100 }),
    ).toBe('ok');
  });

  it('counts members per container: siblings and parents keep their own counts', () => {
    expect(shapeOf('[[1,2,3],[1,2,3],[1,2,3]]')).toBe('ok');
    expect(shapeOf('[[1,2,3],[1,2,3],[1,2,3],[1]]')).toBe('too wide');
    expect(shapeOf('{"a":[1,2,3],"b":{"x":1,"y":2,"z":3},"c":3}')).toBe('ok');
    expect(shapeOf('[1,[1,2,3],2,[4]]')).toBe('too wide');
    expect(shapeOf('[[[1,2,3]],[[1,2,3]],[[1,2,3]]]')).toBe('ok');
  });

  it('ignores brackets, braces and commas inside strings, including after escapes', () => {
    expect(shapeOf('["[[[[[[,,,,,,{{{{{"]')).toBe('ok');
    expect(shapeOf('{"k":"\\"[[[[[[,,,,"}')).toBe('ok'); // escaped quote does not end the string
    expect(shapeOf('["\\\\",[[[[1]]]]]')).toBe('too deep'); // escaped backslash: the string ends
    expect(shapeOf('["\\\\\\"[[[[[["]')).toBe('ok'); // \\ then \" : still inside
    expect(shapeOf('["\\u005b\\u005b\\u005b\\u005b\\u005b"]')).toBe('ok'); // \u escapes are text
    expect(shapeOf('{"[[[[[":1,",,,,":2}')).toBe('ok'); // in keys too
  });

  it('treats multi-byte UTF-8 text as opaque (no byte of it looks like structure)', () => {
    expect(shapeOf(`["${'嬢[,'.repeat(10)}"]`)).toBe('ok');
    expect(shapeOf(`["😀",[[[["é"]]]]]`)).toBe('too deep');
  });

  it('leaves malformed JSON to the parser (no false refusal, no crash)', () => {
    for (const text of ['', ']]]]]]', '[', '"unterminated [[[[[[', '{"a":', '\\', '[1,2,]', '}{'])
      expect(shapeOf(text)).toBe('ok');
  });

  it('is iterative and linear: a million levels are counted, not recursed into', () => {
    const huge = utf8(nested(1_000_000));
    expect(() =>
      assertJsonShape(huge, { maxDepth: 2_000_000, maxMembers: 10, maxContainers: 2_000_000 }),
    ).not.toThrow();
    const started = process.hrtime.bigint();
    for (let i = 0; i < 10; i++) expect(() => assertJsonShape(utf8(`"${'x'.repeat(1_000_000)}"`))).not.toThrow();
    // ~1 MB a pass; a generous bound that only a super-linear scan would break.
    expect(Number(process.hrtime.bigint() - started) / 1e6).toBeLessThan(2_000);
  });

  it('decodes UTF-16 bodies before scanning and refuses charsets it cannot decode with 415', () => {
    const legit = Buffer.from(`{"a":"${'\u5b22'.repeat(40)}"}`, 'utf16le'); // bytes 22 5B: a quote and a bracket to a byte scan
    expect(() => verifyJsonShape(undefined, undefined, legit, 'utf-16le')).not.toThrow();
    expect(() => verifyJsonShape(undefined, undefined, Buffer.from(nested(40), 'utf16le'), 'utf-16le')).toThrow(
      JsonShapeError,
    );
    expect(() => verifyJsonShape(undefined, undefined, utf8(nested(40)), 'utf-8')).toThrow(JsonShapeError);
    expect(() => verifyJsonShape(undefined, undefined, utf8(nested(40)), null)).toThrow(JsonShapeError);
    let refusal: unknown;
    try {
      verifyJsonShape(undefined, undefined, utf8('[]'), 'utf-32');
    } catch (err) {
      refusal = err;
    }
    expect(refusal).toMatchObject({ status: 415, type: 'charset.unsupported' });
  });
});

describe('NUL characters in JSON strings', () => {
  const check = (text: string) => () => assertJsonShape(Buffer.from(text, 'utf8'));

  it('refuses the escape \\u0000 anywhere in a string, as PostgreSQL cannot store it', () => {
    expect(check('{"name":"a\\u0000b"}')).toThrow(/U\+0000/);
    expect(check('{"a\\u0000":1}')).toThrow(/U\+0000/);
  });

  it('accepts an escaped backslash followed by u0000 text, and other escapes', () => {
    expect(check('{"name":"\\\\u0000"}')).not.toThrow();
    expect(check('{"name":"\\u0001 \\u00e9 \\n"}')).not.toThrow();
  });
});
