import { OneRosterQueryError } from '../errors';
import { tokenize } from './lexer';

describe('tokenize', () => {
  it('splits a clause into name, operator and value', () => {
    expect(tokenize("familyName='Jones'")).toEqual([
      { type: 'name', text: 'familyName', pos: 0 },
      { type: 'op', op: '=', pos: 10 },
      { type: 'value', value: 'Jones', pos: 11 },
      { type: 'end', pos: 18 },
    ]);
  });

  it.each(['=', '!=', '>', '>=', '<', '<=', '~'] as const)('reads operator %s', (op) => {
    const tokens = tokenize(`a${op}'1'`);
    expect(tokens[1]).toEqual({ type: 'op', op, pos: 1 });
  });

  it('reads two-character operators greedily', () => {
    expect(tokenize("a>='1'").map((t) => t.type === 'op' && t.op)).toContain('>=');
    expect(tokenize("a<='1'").map((t) => t.type === 'op' && t.op)).toContain('<=');
    expect(tokenize("a!='1'").map((t) => t.type === 'op' && t.op)).toContain('!=');
  });

  it("unescapes '' inside a value", () => {
    expect(tokenize("a='O''Brien'")[2]).toEqual({ type: 'value', value: "O'Brien", pos: 2 });
    expect(tokenize("a=''''")[2]).toEqual({ type: 'value', value: "'", pos: 2 });
    expect(tokenize("a=''")[2]).toEqual({ type: 'value', value: '', pos: 2 });
  });

  it('keeps whitespace and operator characters inside values', () => {
    expect(tokenize("a=' x = y AND z '")[2]).toEqual({ type: 'value', value: ' x = y AND z ', pos: 2 });
  });

  it('skips whitespace of any kind between tokens', () => {
    expect(tokenize(" \t a \n = \r 'v'  ").map((t) => t.type)).toEqual(['name', 'op', 'value', 'end']);
  });

  it('reads dotted names and keywords as names', () => {
    expect(
      tokenize("school.sourcedId='x' AND metadata.a-b_c='y'")
        .filter((t) => t.type === 'name')
        .map((t) => t.type === 'name' && t.text),
    ).toEqual(['school.sourcedId', 'AND', 'metadata.a-b_c']);
  });

  it('rejects an unterminated value with its position', () => {
    expect(() => tokenize("a='abc")).toThrow(OneRosterQueryError);
    expect(() => tokenize("name = 'abc")).toThrow(
      expect.objectContaining({ code: 'invalid_filter_field', parameter: 'filter', position: 7 }),
    );
    expect(() => tokenize("a='it''s")).toThrow(/Unterminated/);
  });

  it.each(['a="x"', 'a=(x)', "(a='x')", "a='x';", "a='x' & b='y'", 'a = `x`', "a='x'|b='y'", "a¬='x'"])(
    'rejects unexpected characters in %p',
    (input) => {
      expect(() => tokenize(input)).toThrow(OneRosterQueryError);
    },
  );

  it('hints at single quotes when double quotes are used', () => {
    expect(() => tokenize('a="x"')).toThrow(/single quotes/);
  });

  it('rejects NUL characters, inside or outside values', () => {
    expect(() => tokenize("a='x\u0000y'")).toThrow(/NUL/);
    expect(() => tokenize("a\u0000='x'")).toThrow(/U\+0000/);
  });
});
