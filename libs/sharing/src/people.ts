import { Injectable } from '@nestjs/common';
import { Pool } from 'pg';
import { sharedIds } from './closure-sql';

/**
 * Which people a scope shares, looked up by what other parts of the platform know of a person:
 * the e-mail address of someone signing in, the roster sourcedIds an alert message names.
 */
@Injectable()
export class SharedPeople {
  constructor(private readonly pool: Pool) {}

  /** True when the scope shares a roster user of the tenant with this e-mail address (case-insensitive). */
  async sharesEmail(tenantId: string, scopeId: string, email: string): Promise<boolean> {
    const { rows } = await this.pool.query(
      `SELECT 1 FROM roster_users AS u
        WHERE u.tenant_id = $1::uuid AND lower(u.email) COLLATE "C" = lower($2::text) COLLATE "C"
          AND u.sourced_id IN ${sharedIds('user', '$3::bigint')} LIMIT 1`,
      [tenantId, email, scopeId],
    );
    return rows.length > 0;
  }

  /**
   * The addresses of `emails` (lower-cased) that a roster user of the tenant the scope shares has,
   * compared case-insensitively: one query for a whole list of people known by address.
   */
  async sharedEmails(tenantId: string, scopeId: string, emails: readonly string[]): Promise<Set<string>> {
    if (emails.length === 0) return new Set();
    const { rows } = await this.pool.query<{ email: string }>(
      `SELECT DISTINCT lower(e.address) AS email FROM unnest($2::text[]) AS e(address)
        WHERE EXISTS (SELECT 1 FROM roster_users AS u
                       WHERE u.tenant_id = $1::uuid AND lower(u.email) COLLATE "C" = lower(e.address) COLLATE "C"
                         AND u.sourced_id IN ${sharedIds('user', '$3::bigint')})`,
      [tenantId, [...emails], scopeId],
    );
    return new Set(rows.map((r) => r.email));
  }

  /** The ones of `sourcedIds` the scope shares (users). */
  async sharedUsers(scopeId: string, sourcedIds: readonly string[]): Promise<Set<string>> {
    if (sourcedIds.length === 0) return new Set();
    const { rows } = await this.pool.query<{ sourced_id: string }>(
      `SELECT s.sourced_id FROM shared_objects AS s WHERE s.scope_id = $1::bigint AND s.object = 'user' AND s.sourced_id = ANY($2::text[])`,
      [scopeId, [...sourcedIds]],
    );
    return new Set(rows.map((r) => r.sourced_id));
  }
}
