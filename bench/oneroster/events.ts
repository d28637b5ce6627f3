/**
 * The change feed's figures (design §11): what writing it costs an import, measured against the
 * same import into a scratch database of the same server without the feed's capture triggers,
 * and how fast a deployment reads it (events/s, pages of 1,000 from the beginning).
 */
import { randomBytes } from 'node:crypto';
import { Client } from 'pg';
import { runMigrations } from '@edu/persistence';
import { runImport } from '../../apps/oneroster/src/imports/import-runner';

export interface FeedFigures {
  /** The same package into a database without the feed's triggers. */
  importWithoutEventsRowsPerSecond: number;
  /** Events read per second, following `next_cursor` from `after=beginning`. */
  readEventsPerSecond: number;
  readEvents: number;
}

function withDatabase(url: string, database: string): string {
  const u = new URL(url);
  u.pathname = `/${database}`;
  return u.toString();
}

/**
 * The package imported into a scratch database whose capture triggers are dropped; rows/s. Dropped,
 * not disabled: PostgreSQL fills a statement's transition table for every trigger that declares
 * one, enabled or not, and that copy of each row is part of what the feed costs.
 */
export async function importWithoutEvents(url: string, dir: string, rootOrg: string): Promise<number> {
  const name = `edu_bench_noevents_${randomBytes(3).toString('hex')}`;
  const admin = new Client({ connectionString: withDatabase(url, 'postgres') });
  await admin.connect();
  await admin.query(`CREATE DATABASE "${name}"`);
  try {
    const scratch = withDatabase(url, name);
    await runMigrations(scratch);
    const c = new Client({ connectionString: scratch, application_name: 'bench-import-no-events' });
    await c.connect();
    try {
      const triggers = await c.query<{ tbl: string; name: string }>(
        `SELECT tgrelid::regclass::text AS tbl, tgname AS name FROM pg_trigger WHERE tgname IN ('roster_events_insert', 'roster_events_update')`,
      );
      for (const t of triggers.rows) await c.query(`DROP TRIGGER ${t.name} ON ${t.tbl}`);
      const { rows } = await c.query<{ id: string }>(
        `INSERT INTO tenants (name, customer_id, govt_id, region_id, licences, root_org_sourced_id)
         VALUES ('Reference District', 1, 'REF-1', 'AU-NSW', '{data-operations}', $1) RETURNING id`,
        [rootOrg],
      );
      const started = Date.now();
      // The same runner as the import measured beside it (a worker thread).
      const report = await runImport({
        databaseUrl: scratch,
        location: dir,
        tenantId: rows[0]!.id,
        source: 'bench-reference',
      });
      if (report.status !== 'succeeded')
        throw new Error(`reference import failed: ${JSON.stringify(report.errors.slice(0, 3))}`);
      return Math.round(report.rows / ((Date.now() - started) / 1000));
    } finally {
      await c.end();
    }
  } finally {
    await admin.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
    await admin.end();
  }
}

/** Reads the feed from the beginning (pages of 1,000) until `max` events or its end; events/s. */
export async function readFeed(
  serviceUrl: string,
  auth: Record<string, string>,
  max: number,
): Promise<{ events: number; perSecond: number }> {
  let events = 0;
  let after = 'beginning';
  const started = Date.now();
  while (events < max) {
    const res = await fetch(`${serviceUrl}/roster-events/v1/events?after=${encodeURIComponent(after)}&limit=1000`, {
      headers: auth,
    });
    if (res.status !== 200) throw new Error(`feed: HTTP ${res.status} ${await res.text()}`);
    const page = (await res.json()) as { events: unknown[]; next_cursor: string; has_more: boolean };
    events += page.events.length;
    after = page.next_cursor;
    if (!page.has_more) break;
  }
  return { events, perSecond: Math.round(events / ((Date.now() - started) / 1000)) };
}
