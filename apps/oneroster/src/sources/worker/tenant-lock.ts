import { Client } from 'pg';
import { connectionSettings } from '@edu/persistence';

/**
 * One sync at a time per tenant, across every worker replica, and none beside an operator upload:
 * the session-level form of the advisory lock the importer takes for its transaction
 * (`roster-import:<tenant>`, roster-importer.ts). PostgreSQL lets the session that holds a lock take
 * it again, so the import run on this same connection goes ahead, while another sync or an upload
 * of the tenant waits until the lock is released. The diff and the import thus see the same rows.
 */
export class TenantLock {
  private constructor(
    readonly client: Client,
    private readonly tenantId: string,
  ) {}

  /** The lock on a connection of its own, or undefined when the tenant is busy. */
  static async tryTake(databaseUrl: string, tenantId: string): Promise<TenantLock | undefined> {
    const client = new Client(
      connectionSettings({ url: databaseUrl, applicationName: 'roster-sync', statementTimeoutMs: 0 }),
    );
    await client.connect();
    try {
      const { rows } = await client.query<{ ok: boolean }>(
        "SELECT pg_try_advisory_lock(hashtextextended('roster-import:' || $1::text, 0)) AS ok",
        [tenantId],
      );
      if (rows[0]?.ok) return new TenantLock(client, tenantId);
    } catch (err) {
      await client.end().catch(() => undefined);
      throw err;
    }
    await client.end().catch(() => undefined);
    return undefined;
  }

  async release(): Promise<void> {
    await this.client
      .query("SELECT pg_advisory_unlock(hashtextextended('roster-import:' || $1::text, 0))", [this.tenantId])
      .catch(() => undefined);
    await this.client.end().catch(() => undefined);
  }
}
