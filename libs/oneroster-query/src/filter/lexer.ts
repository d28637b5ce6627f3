/**
 * Tokeniser for the v1.1 filter language: names, comparison operators and single-quoted
 * values. Whitespace between tokens is skipped; `''` inside a value is one literal quote.
 */
import { OneRosterQueryError } from '../errors';
import type { ComparisonOperator } from './ast';

export type Token =
  | { readonly type: 'name'; readonly text: string; readonly pos: number }
  | { readonly type: 'op'; readonly op: ComparisonOperator; readonly pos: number }
  | { readonly type: 'value'; readonly value: string; readonly pos: number }
  | { readonly type: 'end'; readonly pos: number };

/** Characters of a field name (with dots) or of the logical keywords. */
const NAME_CHAR = /[A-Za-z0-9_.\-]/;
const WHITESPACE = /\s/;

function readOperator(input: string, at: number): ComparisonOperator | undefined {
  const two = input.slice(at, at + 2);
  if (two === '!=' || two === '>=' || two === '<=') return two;
  const one = input[at];
  if (one === '=' || one === '>' || one === '<' || one === '~') return one;
  return undefined;
}

function describeChar(ch: string): string {
  const code = ch.codePointAt(0) ?? 0;
  return code < 0x20 || code === 0x7f
    ? `control character U+${code.toString(16).toUpperCase().padStart(4, '0')}`
    : `'${ch}'`;
}

export function tokenize(input: string): Token[] {
  const tokens: Token[] = [];
  let i = 0;
  while (i < input.length) {
    const ch = input[i] as string;
    if (WHITESPACE.test(ch)) {
      i++;
      continue;
    }
    if (ch === "'") {
      const start = i;
      let value = '';
      i++;
      for (;;) {
        if (i >= input.length)
          throw OneRosterQueryError.filter(`Unterminated quoted value starting at position ${start}`, start);
        const c = input[i] as string;
        if (c === "'") {
          if (input[i + 1] === "'") {
            value += "'";
            i += 2;
            continue;
          }
          i++;
          break;
        }
        if (c === '\u0000') throw OneRosterQueryError.filter(`Value at position ${start} contains a NUL character`, i);
        value += c;
        i++;
      }
      tokens.push({ type: 'value', value, pos: start });
      continue;
    }
    const op = readOperator(input, i);
    if (op) {
      tokens.push({ type: 'op', op, pos: i });
      i += op.length;
      continue;
    }
    if (NAME_CHAR.test(ch)) {
      const start = i;
      while (i < input.length && NAME_CHAR.test(input[i] as string)) i++;
      tokens.push({ type: 'name', text: input.slice(start, i), pos: start });
      continue;
    }
    const hint = ch === '"' ? ' (values must be in single quotes)' : '';
    throw OneRosterQueryError.filter(`Unexpected ${describeChar(ch)} at position ${i}${hint}`, i);
  }
  tokens.push({ type: 'end', pos: input.length });
  return tokens;
}
