import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { Client } from 'pg';
import { importRosterPackage, type ImportReport } from '../../src/imports/roster-importer';
import { openRosterPackage } from '../../src/imports/roster-package';
import type { RosterHarness, TenantSetup } from './harness';
import { csvText, FIXTURE_FILES, manifestText, type RosterFixture } from './roster-fixture';

/** Imports one bulk package (a folder with manifest.csv) through the CSV importer. */
async function importPackage(
  databaseUrl: string,
  tenantId: string,
  fixture: RosterFixture,
  withTombstones: boolean,
): Promise<void> {
  const dir = mkdtempSync(path.join(tmpdir(), 'oneroster-fixture-'));
  try {
    writeFileSync(path.join(dir, 'manifest.csv'), manifestText());
    for (const file of FIXTURE_FILES)
      writeFileSync(path.join(dir, `${file}.csv`), csvText(fixture, file, { withTombstones }));
    const client = new Client({ connectionString: databaseUrl });
    await client.connect();
    try {
      const report = await importRosterPackage(client, () => openRosterPackage(dir), {
        tenantId,
        source: `${fixture.name}-fixture`,
      });
      if (report.status !== 'succeeded')
        throw new Error(`fixture import failed: ${JSON.stringify(report.errors.slice(0, 5))}`);
    } finally {
      await client.end();
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * Loads a fixture for a tenant through the CSV importer: a bulk import of every row, then a
 * bulk import without the rows marked `tombstone`, which the importer marks `tobedeleted`.
 */
export async function loadFixture(h: RosterHarness, t: TenantSetup, fixture: RosterFixture): Promise<void> {
  await importPackage(h.db.url, t.tenantId, fixture, true);
  if (fixture.rows.some((r) => r.tombstone)) await importPackage(h.db.url, t.tenantId, fixture, false);
}

/** Imports a package folder (e.g. from `writeFolder`) for a tenant and returns the report, whatever it says. */
export async function importFolder(h: RosterHarness, tenantId: string, dir: string): Promise<ImportReport> {
  const client = new Client({ connectionString: h.db.url });
  await client.connect();
  try {
    return await importRosterPackage(client, () => openRosterPackage(dir), { tenantId, source: path.basename(dir) });
  } finally {
    await client.end();
    rmSync(dir, { recursive: true, force: true });
  }
}
