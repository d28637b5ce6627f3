import { createHash } from 'node:crypto';
import type { CustomTypesConfig, Pool, QueryConfig, QueryResult, QueryResultRow } from 'pg';

/**
 * Names for statement texts, so pg runs them as named (server-side prepared) statements and
 * PostgreSQL parses and plans each text once per connection instead of on every run. The set is
 * filled by the first texts a process sees and then frozen, so what each pooled connection keeps
 * stays bounded whatever texts come later; those run unnamed.
 */
export class StatementNames {
  private readonly names = new Map<string, string>();

  constructor(
    private readonly prefix: string,
    private readonly max: number,
  ) {}

  /** The text's name, or undefined once the set is full. */
  of(text: string): string | undefined {
    let name = this.names.get(text);
    if (name === undefined && this.names.size < this.max) {
      name = `${this.prefix}_${createHash('sha256').update(text).digest('hex').slice(0, 24)}`;
      this.names.set(text, name);
    }
    return name;
  }

  /** `text` with `values` (and the type parsers to read its rows with), named when the set has room for it. */
  statement(text: string, values: unknown[], types?: CustomTypesConfig): QueryConfig {
    const name = this.of(text);
    return name ? { name, text, values, types } : { text, values, types };
  }
}

/** A pg pool whose `query(text, values)` runs each text as a named statement (`StatementNames`). */
export class NamedStatementPool {
  private readonly names: StatementNames;

  constructor(
    private readonly pool: Pool,
    prefix: string,
    maxStatements: number,
  ) {
    this.names = new StatementNames(prefix, maxStatements);
  }

  query<R extends QueryResultRow = QueryResultRow>(text: string, values: unknown[] = []): Promise<QueryResult<R>> {
    return this.pool.query<R>(this.names.statement(text, values));
  }
}
