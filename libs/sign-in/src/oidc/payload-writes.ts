import { AsyncLocalStorage } from 'node:async_hooks';
import type { NamedStatementPool } from '@edu/persistence';

/** Where the writes go: the process's pg pool (these run on every sign-in: no query builder, no ORM). */
export type Sql = Pick<NamedStatementPool, 'query'>;

/** One write to `oidc_payloads`: an upsert, a consumption or a removal of a row. */
export type PayloadWrite =
  | {
      op: 'upsert';
      kind: string;
      id: string;
      payload: object;
      grantId: unknown;
      userCode: unknown;
      uid: unknown;
      expiresAt: Date | null;
    }
  | { op: 'consume' | 'destroy'; kind: string; id: string };

const UPSERT = `INSERT INTO oidc_payloads (kind, id, payload, grant_id, user_code, uid, expires_at)`;
const ON_CONFLICT = `ON CONFLICT (kind, id) DO UPDATE SET payload = EXCLUDED.payload, grant_id = EXCLUDED.grant_id,
  user_code = EXCLUDED.user_code, uid = EXCLUDED.uid, expires_at = EXCLUDED.expires_at`;

/** Runs one write on its own (as the adapter always did outside a batch). */
export async function writeOne(ds: Sql, w: PayloadWrite): Promise<void> {
  if (w.op === 'upsert')
    await ds.query(`${UPSERT} VALUES ($1, $2, $3, $4, $5, $6, $7) ${ON_CONFLICT}`, [
      w.kind,
      w.id,
      w.payload,
      w.grantId ?? null,
      w.userCode ?? null,
      w.uid ?? null,
      w.expiresAt,
    ]);
  else if (w.op === 'consume')
    await ds.query(`UPDATE oidc_payloads SET consumed_at = now() WHERE kind = $1 AND id = $2 AND consumed_at IS NULL`, [
      w.kind,
      w.id,
    ]);
  else await ds.query(`DELETE FROM oidc_payloads WHERE kind = $1 AND id = $2`, [w.kind, w.id]);
}

// Writes to distinct rows in one statement: $1 upserts, $2 consumptions, $3 removals (JSON arrays).
const BATCH = `WITH rows AS (SELECT * FROM jsonb_to_recordset($1::jsonb) AS x(kind text, id text, payload jsonb,
    "grantId" text, "userCode" text, uid text, "expiresAt" timestamptz)),
  up AS (${UPSERT} SELECT kind, id, payload, "grantId", "userCode", uid, "expiresAt" FROM rows ${ON_CONFLICT}),
  con AS (UPDATE oidc_payloads o SET consumed_at = now() FROM jsonb_to_recordset($2::jsonb) AS x(kind text, id text)
    WHERE o.kind = x.kind AND o.id = x.id AND o.consumed_at IS NULL),
  del AS (DELETE FROM oidc_payloads o USING jsonb_to_recordset($3::jsonb) AS x(kind text, id text)
    WHERE o.kind = x.kind AND o.id = x.id)
SELECT 1`;

/** Runs the writes in order: in one statement when each touches another row (one statement sees no write of another). */
export async function writeAll(ds: Sql, writes: PayloadWrite[]): Promise<void> {
  const rows = new Set(writes.map((w) => `${w.kind}\u0000${w.id}`));
  if (writes.length === 1 || rows.size < writes.length) {
    for (const w of writes) await writeOne(ds, w);
    return;
  }
  const of = (op: PayloadWrite['op']) => JSON.stringify(writes.filter((w) => w.op === op));
  await ds.query(BATCH, [of('upsert'), of('consume'), of('destroy')]);
}

/**
 * The provider's writes of one request, sent together when its handling ends and before its
 * answer leaves (a resumed authorization removes the interaction and stores the code and the
 * session; a code exchange consumes the code and stores the token). A read of a kind with
 * pending writes sends them first, so the request always reads its own writes.
 */
export class PayloadWriteBatch {
  private static readonly current = new AsyncLocalStorage<PayloadWrite[]>();

  /** The batch of this request, when its writes are being held. */
  static pending(): PayloadWrite[] | undefined {
    return this.current.getStore();
  }

  /** Runs `handle` holding the provider's writes, then sends them (also when it failed). */
  static async around(ds: Sql, handle: () => Promise<void>): Promise<void> {
    const writes: PayloadWrite[] = [];
    try {
      await this.current.run(writes, handle);
    } finally {
      await PayloadWriteBatch.flush(ds, writes);
    }
  }

  /** Sends what is held (all of it: the writes of other kinds keep their order too). */
  static async flush(ds: Sql, writes: PayloadWrite[] | undefined): Promise<void> {
    if (!writes?.length) return;
    await writeAll(ds, writes.splice(0));
  }
}
