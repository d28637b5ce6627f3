/** Collects a statement's values: every value is bound as `$n`, never spliced into SQL text. */
export class SqlValues {
  readonly list: unknown[];

  constructor(initial: readonly unknown[] = []) {
    this.list = [...initial];
  }

  /** Binds a value with a cast and returns its placeholder, e.g. `$3::text[]`. */
  bind(value: unknown, type: 'text' | 'text[]' | 'uuid' | 'bigint'): string {
    this.list.push(value);
    return `$${this.list.length}::${type}`;
  }
}
