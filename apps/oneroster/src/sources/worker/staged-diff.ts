/**
 * The staged diff: what a package would delete and create in each object type, measured against
 * the tenant's current rows before anything is written, with the importer's own semantics (a bulk
 * file ends every active row it does not list as active; a delta file ends the rows it lists as
 * `tobedeleted`/`inactive`; app-written gradebook rows are never touched). It runs on the
 * connection that holds the tenant's import lock, so nothing changes between it and the import.
 */
import { createReadStream } from 'node:fs';
import * as path from 'node:path';
import { pipeline } from 'node:stream/promises';
import { Readable } from 'node:stream';
import type { ClientBase } from 'pg';
import { from as copyFromStdin } from 'pg-copy-streams';
import type { RosterSyncDiff, RosterSyncTypeDiff } from '@edu/persistence';
import { layoutOf } from '../../imports/csv-bindings';
import { copyValue } from '../../imports/copy-in';
import { IssueLog } from '../../imports/import-issues';
import { MANIFEST_FILE, readManifest } from '../../imports/manifest';
import { IdScanner } from './id-scanner';

const SAMPLE = 10;

/** Sends a file's sourcedId and status cells to the temporary id table (COPY, in batches of lines). */
async function copyIds(client: ClientBase, file: string, type: string): Promise<void> {
  const t = copyValue(type);
  let batch: string[] = [];
  const batches: string[] = [];
  const scanner = new IdScanner((id, status) => {
    batch.push(`${t}\t${copyValue(id)}\t${copyValue(status)}\n`);
    if (batch.length >= 10_000) {
      batches.push(batch.join(''));
      batch = [];
    }
  });
  const lines = async function* () {
    for await (const chunk of createReadStream(file, { encoding: 'utf8', highWaterMark: 256 * 1024 })) {
      scanner.push(chunk as string);
      yield* batches.splice(0);
    }
    scanner.end();
    yield* batches.splice(0);
    if (batch.length > 0) yield batch.join('');
  };
  const copy = client.query(copyFromStdin('COPY sync_diff_ids (type, sourced_id, status) FROM STDIN'));
  await pipeline(Readable.from(lines()), copy);
}

function typeSql(table: string, mode: 'bulk' | 'delta', appWritable: boolean): string {
  const own = appWritable ? ' AND owner_app_id IS NULL' : '';
  const deleted =
    mode === 'bulk'
      ? `SELECT s.sourced_id FROM stored s WHERE NOT EXISTS (SELECT 1 FROM listed l WHERE l.sourced_id = s.sourced_id AND NOT l.gone)`
      : `SELECT s.sourced_id FROM stored s JOIN listed l ON l.sourced_id = s.sourced_id WHERE l.gone`;
  return `WITH listed AS (
      SELECT sourced_id, bool_or(lower(trim(status)) IN ('tobedeleted', 'inactive')) AS gone
        FROM sync_diff_ids WHERE type = $2 GROUP BY sourced_id),
    stored AS (SELECT sourced_id FROM ${table} WHERE tenant_id = $1 AND status = 'active'${own}),
    deleted AS (${deleted})
    SELECT (SELECT count(*)::int FROM stored) AS active,
           (SELECT count(*)::int FROM listed) AS listed,
           (SELECT count(*)::int FROM listed l WHERE NOT l.gone
              AND NOT EXISTS (SELECT 1 FROM ${table} t WHERE t.tenant_id = $1 AND t.sourced_id = l.sourced_id)) AS created,
           (SELECT count(*)::int FROM deleted) AS deleted,
           (SELECT coalesce(array_agg(sourced_id ORDER BY sourced_id COLLATE "C"), '{}')
              FROM (SELECT sourced_id FROM deleted ORDER BY sourced_id COLLATE "C" LIMIT ${SAMPLE}) x) AS sample`;
}

/**
 * The diff of the package in `dir` against the tenant's rows; `over_threshold` names the types
 * whose deletions exceed `thresholdPercent` of their active rows. A package whose manifest cannot
 * be read has an empty diff (the import refuses it and says why).
 */
export async function stagedDiff(
  client: ClientBase,
  tenantId: string,
  dir: string,
  thresholdPercent: number,
  lap: (what: string) => void = () => undefined,
): Promise<RosterSyncDiff> {
  const diff: RosterSyncDiff = { threshold_percent: thresholdPercent, types: {}, over_threshold: [] };
  const manifest = await readManifest(createReadStream(path.join(dir, MANIFEST_FILE)), new IssueLog()).catch(
    () => undefined,
  );
  if (!manifest) return diff;
  await client.query('CREATE TEMP TABLE IF NOT EXISTS sync_diff_ids (type text, sourced_id text, status text)');
  await client.query('TRUNCATE sync_diff_ids');
  try {
    const types = manifest.binding.files.filter((t) => manifest.files[t] !== 'absent');
    for (const type of types) {
      const file = path.join(dir, layoutOf(manifest.binding, type).fileName);
      await copyIds(client, file, type).catch(() => undefined); // an unreadable file: the import reports it
      lap(`ids of ${type} read`);
    }
    // Statistics, so each comparison below is a hash join over the ids (no index to build).
    await client.query('ANALYZE sync_diff_ids');
    for (const type of types) {
      const layout = layoutOf(manifest.binding, type);
      const mode = manifest.files[type] as 'bulk' | 'delta';
      const { rows } = await client.query<{
        active: number;
        listed: number;
        created: number;
        deleted: number;
        sample: string[];
      }>(typeSql(layout.table, mode, layout.appWritable === true), [tenantId, type]);
      const r = rows[0]!;
      const percent = r.active === 0 ? 0 : Math.round((r.deleted / r.active) * 10_000) / 100;
      const entry: RosterSyncTypeDiff = {
        active: r.active,
        listed: r.listed,
        created: r.created,
        deleted: r.deleted,
        deleted_percent: percent,
        deleted_sample: r.sample,
      };
      diff.types[type] = entry;
      if (r.deleted > 0 && percent > thresholdPercent) diff.over_threshold.push(type);
      lap(`${type} compared`);
    }
  } finally {
    await client.query('DROP TABLE IF EXISTS sync_diff_ids');
  }
  return diff;
}
