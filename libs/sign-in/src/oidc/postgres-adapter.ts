import type { Adapter, AdapterPayload } from 'oidc-provider';
import type { DataSource } from 'typeorm';

/**
 * oidc-provider's storage in PostgreSQL (`oidc_payloads`): one row per artifact, keyed by model
 * name and id, so every replica sees every session, interaction, code and token. Expired rows are
 * invisible at once and deleted later by `sweepExpired`.
 */
export class PostgresOidcAdapter implements Adapter {
  constructor(
    private readonly kind: string,
    private readonly ds: DataSource,
  ) {}

  async upsert(id: string, payload: AdapterPayload, expiresIn: number): Promise<void> {
    const expiresAt = expiresIn ? new Date(Date.now() + expiresIn * 1000) : null;
    await this.ds.query(
      `INSERT INTO oidc_payloads (kind, id, payload, grant_id, user_code, uid, expires_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7)
       ON CONFLICT (kind, id) DO UPDATE SET payload = EXCLUDED.payload, grant_id = EXCLUDED.grant_id,
         user_code = EXCLUDED.user_code, uid = EXCLUDED.uid, expires_at = EXCLUDED.expires_at`,
      [this.kind, id, payload, payload.grantId ?? null, payload.userCode ?? null, payload.uid ?? null, expiresAt],
    );
  }

  find(id: string): Promise<AdapterPayload | undefined> {
    return this.findWhere('id = $2', id);
  }

  findByUid(uid: string): Promise<AdapterPayload | undefined> {
    return this.findWhere('uid = $2', uid);
  }

  findByUserCode(userCode: string): Promise<AdapterPayload | undefined> {
    return this.findWhere('user_code = $2', userCode);
  }

  async consume(id: string): Promise<void> {
    await this.ds.query(
      `UPDATE oidc_payloads SET consumed_at = now() WHERE kind = $1 AND id = $2 AND consumed_at IS NULL`,
      [this.kind, id],
    );
  }

  async destroy(id: string): Promise<void> {
    await this.ds.query(`DELETE FROM oidc_payloads WHERE kind = $1 AND id = $2`, [this.kind, id]);
  }

  /** Every artifact of a grant, whatever its kind (oidc-provider calls this once per kind). */
  async revokeByGrantId(grantId: string): Promise<void> {
    await this.ds.query(`DELETE FROM oidc_payloads WHERE grant_id = $1`, [grantId]);
  }

  private async findWhere(condition: string, value: string): Promise<AdapterPayload | undefined> {
    const rows: { payload: AdapterPayload; consumed_at: Date | null }[] = await this.ds.query(
      `SELECT payload, consumed_at FROM oidc_payloads WHERE kind = $1 AND ${condition} AND (expires_at IS NULL OR expires_at > now()) LIMIT 1`,
      [this.kind, value],
    );
    const row = rows[0];
    if (!row) return undefined;
    return row.consumed_at ? { ...row.payload, consumed: Math.floor(row.consumed_at.getTime() / 1000) } : row.payload;
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
