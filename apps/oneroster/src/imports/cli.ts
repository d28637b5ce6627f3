/**
 * `npm run roster:import -- --tenant <uuid> <zip|dir>`: imports a OneRoster v1.1 CSV package
 * into a tenant's rostering data (DATABASE_URL). Prints a summary, or the error report and exits
 * with 1 when the package is refused (nothing is written then). Exit 2: usage or setup problem.
 */
import * as path from 'node:path';
import { formatReport, parseArgs } from './cli-support';
import { runImport } from './import-runner';
import { UnknownTenantError } from './roster-importer';

async function main(): Promise<number> {
  const args = parseArgs(process.argv.slice(2));
  if (typeof args === 'string') {
    console.error(args);
    return 2;
  }
  const url = process.env['DATABASE_URL'];
  if (!url) {
    console.error('DATABASE_URL is not set');
    return 2;
  }
  try {
    const report = await runImport({
      databaseUrl: url,
      location: args.location,
      tenantId: args.tenantId,
      source: path.basename(path.resolve(args.location)),
      maxErrors: args.maxErrors,
      onProgress: args.quiet || args.json ? undefined : (m) => console.error(`  ${m}`),
    });
    if (args.json) console.log(JSON.stringify(report, null, 2));
    else if (!args.quiet || report.status === 'failed')
      (report.status === 'succeeded' ? console.log : console.error)(formatReport(report));
    return report.status === 'succeeded' ? 0 : 1;
  } catch (err) {
    if (err instanceof UnknownTenantError) {
      console.error(err.message);
      return 2;
    }
    throw err;
  }
}

main().then(
  (code) => process.exit(code),
  (err: unknown) => {
    console.error('roster import failed unexpectedly:', err);
    process.exit(3);
  },
);
