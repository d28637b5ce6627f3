/**
 * Collects the values of a parameterised statement: every value goes through `add()` and is
 * referenced as `$n`; no value is ever spliced into SQL text.
 */
export class SqlParams {
  private readonly list: unknown[] = [];

  constructor(initial: readonly unknown[] = []) {
    this.list.push(...initial);
  }

  /** Adds a value and returns its placeholder (`$1`, `$2`, ...). */
  add(value: unknown): string {
    this.list.push(value);
    return `$${this.list.length}`;
  }

  /** Adds a value with an explicit type cast, e.g. `$3::timestamptz`. */
  typed(
    value: unknown,
    type: 'text' | 'text[]' | 'date' | 'timestamptz' | 'boolean' | 'integer' | 'bigint' | 'double precision',
  ): string {
    return `${this.add(value)}::${type}`;
  }

  get values(): unknown[] {
    return [...this.list];
  }

  get size(): number {
    return this.list.length;
  }
}

/** A SQL fragment with its parameters bound in `params`. */
export interface SqlStatement {
  readonly text: string;
  readonly values: unknown[];
}

/** Escapes `%`, `_` and the escape character itself for a LIKE pattern (default escape `\`). */
export function escapeLike(value: string): string {
  return value.replace(/[\\%_]/g, (c) => `\\${c}`);
}
