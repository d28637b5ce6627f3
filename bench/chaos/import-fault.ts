/**
 * A CSV import killed halfway: the importer CLI (`npm run roster:import`) loads a generated
 * district into a tenant of its own and is SIGKILLed once it has sent its users; the tenant must
 * then hold all of the package or none of it, and the same import run again must complete.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { Client } from 'pg';
import { createDataSource, TenantEntity } from '@edu/persistence';
import { generateRosterPackage } from '../oneroster/generate';

/** Rows per file of the package by table (what the generator counts). */
export const TABLES: Record<string, string> = {
  orgs: 'roster_orgs',
  academicSessions: 'roster_academic_sessions',
  courses: 'roster_courses',
  classes: 'roster_classes',
  users: 'roster_users',
  enrollments: 'roster_enrollments',
};
/** 20,000 users and 40,000 enrollments: a few seconds of importing, long enough to be cut in the middle. */
const SCALE = 0.02;
const KILL_AFTER = /read users\.csv/;

export interface ImportOutcome {
  /** Whether the importer was still running when it was killed. */
  killedMidway: boolean;
  /** What the tenant held after the kill: `none`, `all`, or `partial` (a failure). */
  afterKill: 'none' | 'all' | 'partial';
  rowsAfterKill: number;
  /** The same import run again: its exit code and whether every row is then there. */
  rerunExitCode: number | null;
  rerunComplete: boolean;
  expectedRows: number;
  /** Operator uploads only: what the import's log row said after the kill, and how long it took to say it. */
  logRow?: { status: string; seconds: number };
  passed: boolean;
}

export interface PreparedImport {
  tenantId: string;
  dir: string;
  counts: Record<string, number>;
  cleanup(): void;
}

/** A generated district and an empty tenant of its own to import it into. */
export async function prepareImport(databaseUrl: string, name = 'Chaos Import District'): Promise<PreparedImport> {
  const dir = mkdtempSync(path.join(tmpdir(), 'edu-chaos-import-'));
  const summary = await generateRosterPackage({ out: dir, scale: SCALE, rootOrg: 'org-chaos-district' });
  const ds = createDataSource({ url: databaseUrl, poolSize: 1, applicationName: 'chaos-setup' });
  await ds.initialize();
  try {
    const tenant = await ds.getRepository(TenantEntity).save({
      name,
      customerId: Math.floor(Math.random() * 1e9),
      govtId: 'CHAOS-1',
      regionId: 'AU-NSW',
      licences: ['data-operations'],
      rootOrgSourcedId: summary.rootOrg,
    });
    return { tenantId: tenant.id, dir, counts: summary.counts, cleanup: () => rmSync(dir, { recursive: true }) };
  } finally {
    await ds.destroy();
  }
}

function importer(root: string, databaseUrl: string, p: PreparedImport): ChildProcess {
  const args = [path.join(root, 'tools/runtime/run-dist.js'), 'apps/oneroster/src/imports/cli'];
  return spawn(process.execPath, [...args, '--tenant', p.tenantId, p.dir], {
    cwd: root,
    env: { ...process.env, DATABASE_URL: databaseUrl, LOG_LEVEL: 'warn' },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
}

/** Starts the import and SIGKILLs it once its users are sent; whether it was still running then. */
async function killMidway(root: string, databaseUrl: string, p: PreparedImport): Promise<boolean> {
  const child = importer(root, databaseUrl, p);
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  let output = '';
  const killed = await new Promise<boolean>((resolve) => {
    child.stderr?.on('data', (d: Buffer) => {
      output += d.toString();
      if (KILL_AFTER.test(output) && child.exitCode === null) resolve(child.kill('SIGKILL'));
    });
    void exited.then(() => resolve(false));
  });
  await exited;
  return killed;
}

/** Rows of the tenant per table of the package. */
export async function rowsOf(databaseUrl: string, tenantId: string): Promise<Record<string, number>> {
  const db = new Client({ connectionString: databaseUrl, application_name: 'chaos-check' });
  await db.connect();
  try {
    const out: Record<string, number> = {};
    for (const [file, table] of Object.entries(TABLES)) {
      const { rows } = await db.query<{ n: number }>(`SELECT count(*)::int AS n FROM ${table} WHERE tenant_id = $1`, [
        tenantId,
      ]);
      out[file] = rows[0]?.n ?? 0;
    }
    return out;
  } finally {
    await db.end();
  }
}

export const total = (counts: Record<string, number>) => Object.keys(TABLES).reduce((n, f) => n + (counts[f] ?? 0), 0);

/** Kills the import midway, checks what the tenant holds, then runs it again to completion. */
export async function killImport(root: string, databaseUrl: string, p: PreparedImport): Promise<ImportOutcome> {
  const killedMidway = await killMidway(root, databaseUrl, p);
  const after = await rowsOf(databaseUrl, p.tenantId);
  const expectedRows = total(p.counts);
  const full = Object.keys(TABLES).every((f) => after[f] === p.counts[f]);
  const afterKill = total(after) === 0 ? 'none' : full ? 'all' : 'partial';
  const rerun = importer(root, databaseUrl, p);
  rerun.stderr?.resume(); // its progress lines are not needed, but must not fill the pipe
  const rerunExitCode = await new Promise<number | null>((resolve) => rerun.once('exit', (code) => resolve(code)));
  const again = await rowsOf(databaseUrl, p.tenantId);
  const rerunComplete = Object.keys(TABLES).every((f) => again[f] === p.counts[f]);
  return {
    killedMidway,
    afterKill,
    rowsAfterKill: total(after),
    rerunExitCode,
    rerunComplete,
    expectedRows,
    passed: killedMidway && afterKill !== 'partial' && rerunExitCode === 0 && rerunComplete,
  };
}
