import { formatReport, parseArgs } from './cli-support';
import type { ImportReport } from './roster-importer';

const T = '6f1c2a9e-3b4d-4e8a-9c11-2a7b5e0d4f01';

describe('roster import CLI', () => {
  it('parses its arguments', () => {
    expect(parseArgs(['--tenant', T.toUpperCase(), 'pkg.zip'])).toEqual({
      tenantId: T,
      location: 'pkg.zip',
      json: false,
      quiet: false,
      maxErrors: 1000,
    });
    expect(parseArgs([`--tenant=${T}`, '--json', '--max-errors', '5', 'dir'])).toMatchObject({
      json: true,
      maxErrors: 5,
      location: 'dir',
    });
    expect(parseArgs(['pkg.zip'])).toMatch(/--tenant <uuid> is required/);
    expect(parseArgs(['--tenant', 'abc', 'pkg.zip'])).toMatch(/--tenant/);
    expect(parseArgs(['--tenant', T])).toMatch(/package/);
    expect(parseArgs(['--tenant', T, 'a', 'b'])).toMatch(/only one package/);
    expect(parseArgs(['--bogus'])).toMatch(/Unknown option '--bogus'/);
  });

  const report = (o: Partial<ImportReport>): ImportReport => ({
    id: 'i-1',
    tenantId: T,
    status: 'succeeded',
    mode: 'bulk',
    source: 'pkg.zip',
    startedAt: new Date('2026-01-01T00:00:00Z'),
    finishedAt: new Date('2026-01-01T00:00:02Z'),
    rows: 100,
    counts: { 'users.csv': { inserted: 90, updated: 5, unchanged: 5, tombstoned: 1 } },
    errors: [],
    errorCount: 0,
    warnings: [],
    dataVersion: '3',
    ...o,
  });

  it('prints a summary or every error', () => {
    const ok = formatReport(report({}));
    expect(ok).toContain('100 rows in 2.00 s (50 rows/s), data version 3');
    expect(ok).toMatch(/users\.csv\s+90\s+5\s+5\s+1/);
    const failed = formatReport(
      report({
        status: 'failed',
        errorCount: 3,
        errors: [{ file: 'users.csv', line: 4, column: 'role', message: "'x' is not one of …" }],
      }),
    );
    expect(failed).toContain('refused: 3 error(s); nothing was written');
    expect(failed).toContain("users.csv:4 [role]: 'x' is not one of …");
    expect(failed).toContain('... and 2 more');
  });
});
