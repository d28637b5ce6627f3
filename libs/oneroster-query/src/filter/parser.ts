/**
 * Parser for the OneRoster v1.1 `filter` parameter:
 *
 *   filter  = clause [ logical clause ]
 *   clause  = field operator "'" value "'"
 *   logical = AND | OR            (any letter case)
 *
 * At most one logical operator (two clauses), as v1.1 defines; more is `invalid_filter_field`.
 */
import { OneRosterQueryError, excerpt } from '../errors';
import type { ClassRef } from '../model/catalog';
import type { FilterNode, PredicateNode } from './ast';
import { resolveFilterField } from './field-ref';
import { tokenize, type Token } from './lexer';
import { checkOperator, parseLiteral } from './literals';

function logicalKeyword(token: Token): 'and' | 'or' | undefined {
  if (token.type !== 'name') return undefined;
  const lower = token.text.toLowerCase();
  return lower === 'and' || lower === 'or' ? lower : undefined;
}

function describe(token: Token): string {
  switch (token.type) {
    case 'name':
      return `'${excerpt(token.text)}'`;
    case 'op':
      return `operator '${token.op}'`;
    case 'value':
      return 'a quoted value';
    case 'end':
      return 'end of filter';
  }
}

class FilterParser {
  private index = 0;

  constructor(
    private readonly tokens: readonly Token[],
    private readonly resource: ClassRef,
  ) {}

  parse(): FilterNode {
    if (this.peek().type === 'end') throw OneRosterQueryError.filter('Empty filter', 0);
    const left = this.clause();
    const next = this.peek();
    if (next.type === 'end') return left;
    const logical = logicalKeyword(next);
    if (!logical) throw this.unexpected(next, "'AND', 'OR' or end of filter");
    this.index++;
    const right = this.clause();
    const after = this.peek();
    if (after.type !== 'end') {
      if (logicalKeyword(after)) {
        throw OneRosterQueryError.filter(
          `At most one logical operator (two clauses) is allowed in a OneRoster v1.1 filter; found another at position ${after.pos}`,
          after.pos,
        );
      }
      throw this.unexpected(after, 'end of filter');
    }
    return { kind: logical, left, right };
  }

  private clause(): PredicateNode {
    const name = this.next();
    if (name.type !== 'name' || logicalKeyword(name)) throw this.unexpected(name, 'a field name');
    if (name.text.startsWith('.') || name.text.endsWith('.') || name.text.includes('..')) {
      throw OneRosterQueryError.filter(
        `Malformed field name '${excerpt(name.text)}' at position ${name.pos}`,
        name.pos,
      );
    }
    const opToken = this.next();
    if (opToken.type !== 'op') throw this.unexpected(opToken, 'a comparison operator (= != > >= < <= ~)');
    const valueToken = this.next();
    if (valueToken.type !== 'value') throw this.unexpected(valueToken, "a value in single quotes, e.g. 'abc'");

    const field = resolveFilterField(this.resource, name.text, name.pos);
    checkOperator(field.ref, opToken.op, opToken.pos);
    const value = parseLiteral(field, valueToken.value, valueToken.pos);
    return { kind: 'predicate', field: field.ref, op: opToken.op, value };
  }

  private peek(): Token {
    return this.tokens[this.index] as Token;
  }

  private next(): Token {
    const token = this.peek();
    if (token.type !== 'end') this.index++;
    return token;
  }

  private unexpected(token: Token, expected: string): OneRosterQueryError {
    return OneRosterQueryError.filter(
      `Expected ${expected} at position ${token.pos}, found ${describe(token)}`,
      token.pos,
    );
  }
}

/**
 * Parses and validates a filter expression for `resource`. Returns the AST, or throws
 * `OneRosterQueryError` (`invalid_filter_field`) for any syntax, field, operator or value problem.
 */
export function parseFilter(input: string, resource: ClassRef): FilterNode {
  return new FilterParser(tokenize(input), resource).parse();
}
