import type { Adapter, AdapterPayload } from 'oidc-provider';
import type { DataSource } from 'typeorm';
import { forgetReadsUnder, memoRead } from '../reads/request-reads';
import { READ_KEYS } from '../reads/read-keys';
import { PayloadWriteBatch, writeOne, type PayloadWrite, type Sql } from './payload-writes';

/** A row of `oidc_payloads` as read: its payload and when it was consumed. */
export interface PayloadRow {
  payload: AdapterPayload;
  consumed_at: Date | string | null;
}

/** What the adapter answers for a row: the payload, with `consumed` (epoch seconds) once consumed. */
export function adapterPayload(row: PayloadRow | null | undefined): AdapterPayload | undefined {
  if (!row) return undefined;
  if (!row.consumed_at) return row.payload;
  return { ...row.payload, consumed: Math.floor(new Date(row.consumed_at).getTime() / 1000) };
}

/** The condition of a live row (shared with the batched reads). */
export const LIVE_PAYLOAD = '(expires_at IS NULL OR expires_at > now())';

/**
 * oidc-provider's storage in PostgreSQL (`oidc_payloads`): one row per artifact, keyed by model
 * name and id, so every replica sees every session, interaction, code and token. Expired rows are
 * invisible at once and deleted later by `sweepExpired`. Within a request, a row is read once
 * (the provider looks an interaction up more than once) and forgotten when written.
 */
export class PostgresOidcAdapter implements Adapter {
  constructor(
    private readonly kind: string,
    private readonly db: Sql,
  ) {}

  async upsert(id: string, payload: AdapterPayload, expiresIn: number): Promise<void> {
    const expiresAt = expiresIn ? new Date(Date.now() + expiresIn * 1000) : null;
    const { grantId, userCode, uid } = payload;
    await this.write({ op: 'upsert', kind: this.kind, id, payload, grantId, userCode, uid, expiresAt });
  }

  find(id: string): Promise<AdapterPayload | undefined> {
    return this.remembered(READ_KEYS.oidc(this.kind, id), () => this.findWhere('id = $2', id));
  }

  findByUid(uid: string): Promise<AdapterPayload | undefined> {
    return this.remembered(READ_KEYS.oidcByUid(this.kind, uid), () => this.findWhere('uid = $2', uid));
  }

  findByUserCode(userCode: string): Promise<AdapterPayload | undefined> {
    return this.findWhere('user_code = $2', userCode);
  }

  async consume(id: string): Promise<void> {
    await this.write({ op: 'consume', kind: this.kind, id });
  }

  async destroy(id: string): Promise<void> {
    await this.write({ op: 'destroy', kind: this.kind, id });
  }

  /** Every artifact of a grant, whatever its kind (oidc-provider calls this once per kind). */
  async revokeByGrantId(grantId: string): Promise<void> {
    // Rows of any kind go: nothing read before is remembered after.
    forgetReadsUnder('');
    await PayloadWriteBatch.flush(this.db, PayloadWriteBatch.pending());
    await this.db.query(`DELETE FROM oidc_payloads WHERE grant_id = $1`, [grantId]);
  }

  /** Held in the request's batch when there is one (see payload-writes.ts), else written now. */
  private async write(w: PayloadWrite): Promise<void> {
    this.forget();
    const batch = PayloadWriteBatch.pending();
    if (batch) batch.push(w);
    else await writeOne(this.db, w);
  }

  /** The remembered payload is copied: the provider's models may change what they were given. */
  private async remembered(
    key: string,
    read: () => Promise<AdapterPayload | undefined>,
  ): Promise<AdapterPayload | undefined> {
    // A request reads its own writes: held writes of this kind are sent first.
    const batch = PayloadWriteBatch.pending();
    if (batch?.some((w) => w.kind === this.kind)) await PayloadWriteBatch.flush(this.db, batch);
    const payload = await memoRead(key, read);
    return payload && structuredClone(payload);
  }

  /** After a write of this kind, its rows are read anew (by id or by uid). */
  private forget(): void {
    forgetReadsUnder(READ_KEYS.oidc(this.kind, ''));
    forgetReadsUnder(READ_KEYS.oidcByUid(this.kind, ''));
  }

  private async findWhere(condition: string, value: string): Promise<AdapterPayload | undefined> {
    const { rows } = await this.db.query<PayloadRow>(
      `SELECT payload, consumed_at FROM oidc_payloads WHERE kind = $1 AND ${condition} AND ${LIVE_PAYLOAD} LIMIT 1`,
      [this.kind, value],
    );
    return adapterPayload(rows[0]);
  }
}

/** Deletes rows that expired more than a minute ago (a bounded batch per call). */
export async function sweepExpired(ds: DataSource, batch = 1000): Promise<number> {
  // TypeORM answers a DELETE with [rows, count].
  const [, count]: [unknown[], number] = await ds.query(
    `DELETE FROM oidc_payloads WHERE ctid IN (SELECT ctid FROM oidc_payloads WHERE expires_at < now() - interval '1 minute' LIMIT $1)`,
    [batch],
  );
  await ds.query(`DELETE FROM sign_in_grants WHERE expires_at < now() - interval '1 minute'`);
  return count;
}
