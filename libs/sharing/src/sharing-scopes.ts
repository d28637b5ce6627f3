import { Injectable } from '@nestjs/common';
import { LRUCache } from 'lru-cache';
import { Pool, type PoolClient } from 'pg';
import { closureStatements, SHARED_SCHOOLS_SQL } from './closure-sql';
import { recordViewChanges } from './view-changes';
import { canonicalSpec, limitsObjects, specHash, type SharingSpec } from './sharing-spec';

/** How long a replica trusts a scope id it looked up (scopes in use are never pruned sooner). */
const SCOPE_ID_TTL_MS = 10 * 60_000;
/** Scope ids remembered per replica. */
const REMEMBERED_SCOPES = 5_000;
/** Concurrent computations of one scope: the losers retry and find the winner's. */
const ATTEMPTS = 5;
const RETRYABLE = new Set(['40001', '40P01', '23505']);

const CURRENT_VERSION_SQL =
  'SELECT COALESCE((SELECT version FROM roster_data_versions WHERE tenant_id = $1::uuid), 0)::text AS version';

/**
 * Visibility scopes: the objects a sharing spec lets an app see in a tenant's roster at one data
 * version, computed once (on first use, by whichever replica needs it first) into
 * `shared_objects` and found by id afterwards. A scope is keyed by (tenant, spec hash, roster
 * version), so an import or a different spec simply uses another scope; superseded ones are pruned.
 */
@Injectable()
export class SharingScopes {
  private readonly ids = new LRUCache<string, { id: string }, () => Promise<string>>({
    max: REMEMBERED_SCOPES,
    ttl: SCOPE_ID_TTL_MS,
    fetchMethod: async (_key, _stale, { context }) => ({ id: await context() }),
  });

  private readonly keyed = new WeakMap<SharingSpec, { canonical: SharingSpec; hash: string }>();

  constructor(private readonly pool: Pool) {}

  /**
   * The scope id of `spec` in the tenant's roster at `rosterVersion` (the current version when not
   * given); null when the spec limits no objects (mode `all`: every row is visible).
   */
  async scopeOf(tenantId: string, spec: SharingSpec, rosterVersion?: string): Promise<string | null> {
    if (!limitsObjects(spec)) return null;
    const { canonical, hash } = this.keyOf(spec);
    const version = rosterVersion ?? (await this.currentVersion(tenantId));
    const boxed = await this.ids.fetch(`${tenantId}|${hash}|${version}`, {
      context: () => this.find(tenantId, canonical, hash, version),
    });
    return (boxed as { id: string }).id;
  }

  /**
   * The canonical form and hash of a spec, once per spec object: the readers hand every request
   * the same remembered spec, and sorting and hashing a spec of thousands of classes on each read
   * cost more than the read. Specs are never changed once built.
   */
  private keyOf(spec: SharingSpec): { canonical: SharingSpec; hash: string } {
    let keyed = this.keyed.get(spec);
    if (!keyed) {
      const canonical = canonicalSpec(spec);
      keyed = { canonical, hash: specHash(canonical) };
      this.keyed.set(spec, keyed);
    }
    return keyed;
  }

  private async currentVersion(tenantId: string): Promise<string> {
    const { rows } = await this.pool.query<{ version: string }>(CURRENT_VERSION_SQL, [tenantId]);
    return rows[0]?.version ?? '0';
  }

  private async find(tenantId: string, spec: SharingSpec, hash: string, version: string): Promise<string> {
    for (let attempt = 1; ; attempt++) {
      const { rows } = await this.pool.query<{ id: string }>(
        'SELECT id FROM sharing_scopes WHERE tenant_id = $1::uuid AND spec_hash = $2 AND roster_version = $3::bigint',
        [tenantId, hash, version],
      );
      if (rows[0]) return rows[0].id;
      try {
        return await this.compute(tenantId, spec, hash);
      } catch (err) {
        const code = (err as { code?: string }).code;
        if (attempt >= ATTEMPTS || !code || !RETRYABLE.has(code)) throw err;
      }
    }
  }

  /**
   * Computes the scope at the version the transaction sees (all statements read one snapshot).
   * Another replica computing the same scope makes this one wait on the unique key, then fail
   * with a serialization error: the caller retries and finds the finished scope.
   */
  private async compute(tenantId: string, spec: SharingSpec, hash: string): Promise<string> {
    const client = await this.pool.connect();
    let broken: Error | undefined;
    try {
      await client.query('BEGIN ISOLATION LEVEL REPEATABLE READ');
      let id: string;
      try {
        id = await this.fill(client, tenantId, spec, hash);
        await client.query('COMMIT');
      } catch (err) {
        await client.query('ROLLBACK').catch((e: Error) => (broken = e));
        throw err;
      }
      // Fresh statistics: without them the planner guesses the size of a scope's lists and may
      // start a class's members from every shared user. ANALYZE samples, so it stays cheap.
      await client.query('ANALYZE shared_objects').catch(() => undefined);
      return id;
    } finally {
      client.release(broken);
    }
  }

  private async fill(client: PoolClient, tenantId: string, spec: SharingSpec, hash: string): Promise<string> {
    const version = (await client.query<{ version: string }>(CURRENT_VERSION_SQL, [tenantId])).rows[0]?.version ?? '0';
    const inserted = await client.query<{ id: string }>(
      `INSERT INTO sharing_scopes (tenant_id, spec_hash, roster_version) VALUES ($1::uuid, $2, $3::bigint)
       ON CONFLICT ON CONSTRAINT "UQ_sharing_scopes_key" DO NOTHING RETURNING id`,
      [tenantId, hash, version],
    );
    const id = inserted.rows[0]?.id;
    if (!id) {
      const { rows } = await client.query<{ id: string }>(
        'SELECT id FROM sharing_scopes WHERE tenant_id = $1::uuid AND spec_hash = $2 AND roster_version = $3::bigint',
        [tenantId, hash, version],
      );
      return rows[0]?.id as string;
    }
    const schools =
      spec.mode === 'schools'
        ? (await client.query<{ sourced_id: string }>(SHARED_SCHOOLS_SQL, [tenantId, spec.schools])).rows.map(
            (r) => r.sourced_id,
          )
        : [];
    for (const s of closureStatements(spec, schools)) await client.query(s.text, [id, tenantId, ...s.values.slice(2)]);
    const previous = await this.previousScope(client, tenantId, hash, version);
    if (previous) await this.recordViewChanges(client, tenantId, spec, hash, previous, id);
    await this.prune(client, tenantId, id, hash, previous);
    return id;
  }

  /** The newest scope of the same spec at an earlier data version, if one was computed. */
  private async previousScope(
    client: PoolClient,
    tenantId: string,
    hash: string,
    version: string,
  ): Promise<string | undefined> {
    const { rows } = await client.query<{ id: string }>(
      `SELECT id FROM sharing_scopes WHERE tenant_id = $1::uuid AND spec_hash = $2 AND roster_version < $3::bigint
        ORDER BY roster_version DESC LIMIT 1`,
      [tenantId, hash, version],
    );
    return rows[0]?.id;
  }

  /**
   * The data changed what the spec shows (a class's subject changed under a rule, a person left a
   * shared class): each deployment with this sharing in force gets the change of its view in the
   * change feed, in this transaction.
   */
  private async recordViewChanges(
    client: PoolClient,
    tenantId: string,
    spec: SharingSpec,
    hash: string,
    from: string,
    to: string,
  ): Promise<void> {
    const { rows } = await client.query<{ deployment_id: string }>(
      'SELECT deployment_id FROM deployment_sharing WHERE tenant_id = $1::uuid AND active_hash = $2',
      [tenantId, hash],
    );
    for (const { deployment_id } of rows)
      await recordViewChanges(
        client,
        tenantId,
        deployment_id,
        { scopeId: from, withhold: spec.withhold },
        { scopeId: to, withhold: spec.withhold },
      );
  }

  /**
   * Drops scopes nothing reads any more: this spec's older than the previous one (a read in flight
   * may still use the previous, and the next version's view changes are counted from it), and
   * after a day any scope of a spec no deployment of the tenant has active (previews of drafts).
   */
  private async prune(
    client: PoolClient,
    tenantId: string,
    id: string,
    hash: string,
    previous?: string,
  ): Promise<void> {
    await client.query(
      `DELETE FROM sharing_scopes
        WHERE tenant_id = $1::uuid AND id <> $2::bigint AND id <> $4::bigint
          AND ((spec_hash = $3)
               OR (created_at < now() - interval '1 day'
                   AND spec_hash NOT IN (SELECT active_hash FROM deployment_sharing WHERE tenant_id = $1::uuid AND active_hash IS NOT NULL)))`,
      [tenantId, id, hash, previous ?? id],
    );
  }
}
