/**
 * Prints a filter AST back as a canonical filter string: canonical field paths, single spaces,
 * upper-case logical keyword, normalised literals with `'` doubled. `parseFilter` of the result
 * gives the same AST (for the one-operator trees `parseFilter` produces).
 */
import type { FilterNode, TypedLiteral } from './ast';

export function literalText(literal: TypedLiteral): string {
  switch (literal.kind) {
    case 'datetime':
      return literal.dateOnly ? literal.iso.slice(0, 10) : literal.iso;
    case 'boolean':
      return literal.value ? 'true' : 'false';
    case 'number':
      return String(literal.value);
    default:
      return literal.value;
  }
}

export function quoteFilterValue(text: string): string {
  return `'${text.replace(/'/g, "''")}'`;
}

export function stringifyFilter(node: FilterNode): string {
  if (node.kind === 'predicate') return `${node.field.path}${node.op}${quoteFilterValue(literalText(node.value))}`;
  return `${stringifyFilter(node.left)} ${node.kind.toUpperCase()} ${stringifyFilter(node.right)}`;
}
