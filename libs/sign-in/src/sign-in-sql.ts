import { Injectable, Module } from '@nestjs/common';
import { Pool } from 'pg';
import { NamedStatementPool } from '@edu/persistence';

/** Sign-in's statement texts are constants: a few dozen at most. */
const MAX_SIGN_IN_STATEMENTS = 64;

/**
 * The process's pg pool as the statements of every sign-in use it (the batched reads, the
 * provider's artifacts, the upstream logins): each text runs as a named statement, so PostgreSQL
 * parses and plans the large batched reads once per connection rather than on every request.
 */
@Injectable()
export class SignInSql extends NamedStatementPool {
  constructor(pool: Pool) {
    super(pool, 'sign_in', MAX_SIGN_IN_STATEMENTS);
  }
}

/** `SignInSql` for every sign-in module that runs statements. */
@Module({ providers: [SignInSql], exports: [SignInSql] })
export class SignInSqlModule {}
