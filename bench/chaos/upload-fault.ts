/**
 * An operator upload killed halfway: the package goes to the oneroster service
 * (`POST /admin/tenants/:id/roster-imports`), which runs it in a worker thread; the service is
 * SIGKILLed while it imports and restarted. The tenant must hold all of the package or none, the
 * import's log row must stop saying `running` (another process fails it once it goes quiet),
 * and the same upload sent again must complete.
 */
import { readdirSync } from 'node:fs';
import * as path from 'node:path';
import { Client } from 'pg';
import { ZipFile } from 'yazl';
import { sleep } from '../soak/http';
import { rowsOf, TABLES, total, type ImportOutcome, type PreparedImport } from './import-fault';
import { untilAllReady } from './readiness';
import type { ChaosService } from './service';
import type { ChaosStack } from './stack';

const LOG_ROW_WAIT_MS = 150_000;

async function zipOf(dir: string): Promise<Buffer> {
  const zip = new ZipFile();
  for (const name of readdirSync(dir)) zip.addFile(path.join(dir, name), name);
  zip.end();
  const chunks: Buffer[] = [];
  for await (const chunk of zip.outputStream) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

async function operatorToken(identityUrl: string, operator: { id: string; secret: string }): Promise<string> {
  const res = await fetch(`${identityUrl}/oauth/token`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({
      grant_type: 'client_credentials',
      client_id: operator.id,
      client_secret: operator.secret,
    }),
  });
  return ((await res.json()) as { access_token: string }).access_token;
}

/** The tenant's latest import log row, once one exists. */
async function logRow(db: Client, tenantId: string): Promise<{ status: string; started: Date } | undefined> {
  const { rows } = await db.query<{ status: string; started_at: Date }>(
    'SELECT status, started_at FROM roster_imports WHERE tenant_id = $1 ORDER BY started_at DESC LIMIT 1',
    [tenantId],
  );
  return rows[0] ? { status: rows[0].status, started: rows[0].started_at } : undefined;
}

/** Polls the log row until it is no longer `running` or the time is up. */
async function settledRow(db: Client, tenantId: string, from: number): Promise<{ status: string; seconds: number }> {
  for (;;) {
    const row = await logRow(db, tenantId);
    if (row?.status !== 'running' || Date.now() - from > LOG_ROW_WAIT_MS)
      return { status: row?.status ?? 'none', seconds: (Date.now() - from) / 1000 };
    await sleep(1_000);
  }
}

/** Sends the upload and, once the service has been importing it for 2 s, kills the service; whether it was still importing. */
async function uploadAndKill(
  url: string,
  token: string,
  body: Buffer,
  db: Client,
  p: PreparedImport,
  oneroster: ChaosService,
) {
  const sent = fetch(url, {
    method: 'POST',
    headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/zip' },
    body,
  }).catch(() => undefined); // cut by the kill
  while (!(await logRow(db, p.tenantId))) await sleep(100);
  await sleep(2_000);
  const midway = (await logRow(db, p.tenantId))?.status === 'running';
  await oneroster.kill();
  await sent;
  return midway;
}

/** Sends the upload again and waits for it to succeed (201 at once, or 202 and then polled). */
async function uploadAgain(url: string, token: string, body: Buffer, db: Client, p: PreparedImport): Promise<boolean> {
  const res = await fetch(url, {
    method: 'POST',
    headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/zip' },
    body,
  });
  await res.arrayBuffer();
  if (res.status !== 201 && res.status !== 202) return false;
  return (await settledRow(db, p.tenantId, Date.now())).status === 'succeeded';
}

export async function killUpload(
  o: { identityUrl: string; databaseUrl: string; operator: { id: string; secret: string } },
  stack: ChaosStack,
  p: PreparedImport,
): Promise<{ liftedAt: number; readyAt: number | undefined; outcome: ImportOutcome }> {
  const oneroster = stack.services.oneroster;
  const db = new Client({ connectionString: o.databaseUrl, application_name: 'chaos-check' });
  await db.connect();
  try {
    const token = await operatorToken(o.identityUrl, o.operator);
    const body = await zipOf(p.dir);
    const url = `${oneroster.url}/admin/tenants/${p.tenantId}/roster-imports`;
    const killedMidway = await uploadAndKill(url, token, body, db, p, oneroster);
    const liftedAt = Date.now();
    await oneroster.restart();
    const readyAt = await untilAllReady(stack.urls, 120_000);
    const after = await rowsOf(o.databaseUrl, p.tenantId);
    const full = Object.keys(TABLES).every((f) => after[f] === p.counts[f]);
    const afterKill = total(after) === 0 ? 'none' : full ? 'all' : 'partial';
    const row = await settledRow(db, p.tenantId, liftedAt);
    const rerunOk = await uploadAgain(url, token, body, db, p);
    const again = await rowsOf(o.databaseUrl, p.tenantId);
    const rerunComplete = rerunOk && Object.keys(TABLES).every((f) => again[f] === p.counts[f]);
    const outcome: ImportOutcome = {
      killedMidway,
      afterKill,
      rowsAfterKill: total(after),
      rerunExitCode: rerunOk ? 0 : 1,
      rerunComplete,
      expectedRows: total(p.counts),
      logRow: row,
      passed: killedMidway && afterKill !== 'partial' && row.status !== 'running' && rerunComplete,
    };
    return { liftedAt, readyAt, outcome };
  } finally {
    await db.end();
  }
}
