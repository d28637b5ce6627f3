/** The provisioning command line (see cli.ts), as a function returning the exit code. */
import { readFileSync } from 'node:fs';
import { BaseEnv, parseCommandLine } from '@edu/config';
import { ScopeCatalog, scopeBasesOf } from '@edu/domain';
import { databaseCommandConfig, withCommandDatabase, type CliOutput } from '@edu/persistence';
import { Provisioner, ProvisioningError, type ProvisionReport } from './provisioner';

export type { CliOutput } from '@edu/persistence';

const USAGE = 'usage: npm run provision -- <file.json> [--dry-run]';

function describe(report: ProvisionReport, file: string): string[] {
  const lines = [`${report.dryRun ? 'Checked (dry run, nothing written)' : 'Loaded'} ${file}:`];
  for (const [section, c] of Object.entries(report.counts)) {
    if (c.created + c.updated + c.unchanged > 0)
      lines.push(`  ${section.padEnd(20)} ${c.created} created, ${c.updated} updated, ${c.unchanged} unchanged`);
  }
  for (const s of report.generatedSecrets)
    lines.push(
      `  generated client secret for ${s.record}: client_id=${s.client_id} client_secret=${s.client_secret} (shown once)`,
    );
  return lines;
}

/** The CLI as a function (exit code), so tests can run it in-process. */
export async function runProvisionCli(args: string[], env: NodeJS.ProcessEnv, out: CliOutput): Promise<number> {
  const parsed = parseCommandLine({
    args,
    options: { 'dry-run': { type: 'boolean', default: false } },
    allowPositionals: true,
  });
  if (typeof parsed === 'string' || parsed.positionals.length !== 1) {
    if (typeof parsed === 'string') out.error(parsed);
    out.error(USAGE);
    return 2;
  }
  const { positionals: files, values } = parsed;
  const dryRun = values['dry-run'];
  const config = databaseCommandConfig(BaseEnv, env);
  if (typeof config === 'string') {
    out.error(config);
    return 2;
  }
  let input: unknown;
  try {
    input = JSON.parse(readFileSync(files[0], 'utf8'));
  } catch (err) {
    out.error(`${files[0]}: ${err instanceof Error ? err.message : String(err)}`);
    return 1;
  }
  return withCommandDatabase(config.DATABASE_URL, 'edu-provision', async (ds) => {
    try {
      const catalog = new ScopeCatalog(scopeBasesOf(config));
      const report = await new Provisioner(ds, catalog).load(input, { dryRun });
      for (const line of describe(report, files[0])) out.log(line);
      return 0;
    } catch (err) {
      if (err instanceof ProvisioningError) {
        out.error(`${files[0]}: ${err.message}`);
        return 1;
      }
      out.error(
        `${files[0]}: provisioning failed, nothing was written: ${err instanceof Error ? err.message : String(err)}`,
      );
      return 1;
    }
  });
}
