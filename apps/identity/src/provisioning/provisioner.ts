import type { DataSource, EntityManager } from 'typeorm';
import type { ScopeCatalog } from '@edu/domain';
import { dtoProblems } from '@edu/http';
import { SECTIONS, type ProvisionFile, type SectionName } from './provision-file';
import { referenceProblems } from './reference-checks';
import { writeSections, type GeneratedSecret, type SectionCounts } from './section-writers';

export type { SectionCounts } from './section-writers';

/** A file that cannot be loaded; every problem names the record and field (`apps[2].oauth2.redirect_uris[0]: ...`). */
export class ProvisioningError extends Error {
  constructor(readonly problems: string[]) {
    super(`The provisioning file was not loaded (nothing was written):\n${problems.map((p) => `  - ${p}`).join('\n')}`);
    this.name = 'ProvisioningError';
  }
}

export interface ProvisionReport {
  counts: Record<SectionName, SectionCounts>;
  /** Client secrets generated because the file gave none: shown once, here. */
  generatedSecrets: GeneratedSecret[];
  dryRun: boolean;
}

class DryRunRollback extends Error {}

/**
 * Loads a provisioning file (tenants, developers, apps, identity providers, constituencies, users,
 * tenant-users, deployments, vanity domains) in one transaction. Every record is validated with the
 * API's own rules and every reference is checked before anything is written; objects are matched
 * by their ids or natural keys and written only when they differ, so loading the same file twice
 * changes nothing. Nothing is ever deleted.
 */
export class Provisioner {
  constructor(
    private readonly ds: DataSource,
    private readonly catalog: ScopeCatalog,
  ) {}

  async load(input: unknown, options: { dryRun?: boolean } = {}): Promise<ProvisionReport> {
    const file = await this.parse(input);
    let report: ProvisionReport | undefined;
    try {
      await this.ds.transaction(async (m) => {
        await this.checkReferences(file, m);
        report = await this.write(file, m, !!options.dryRun);
        if (options.dryRun) throw new DryRunRollback();
      });
    } catch (err) {
      if (!(err instanceof DryRunRollback)) throw err;
    }
    return report as ProvisionReport;
  }

  /** Shape and field rules of every record. */
  async parse(input: unknown): Promise<ProvisionFile> {
    if (typeof input !== 'object' || input === null || Array.isArray(input))
      throw new ProvisioningError([
        '(file): must be a JSON object with the sections ' + Object.keys(SECTIONS).join(', '),
      ]);
    const problems: string[] = [];
    const file = {} as Record<string, unknown[]>;
    for (const key of Object.keys(input)) {
      if (!(key in SECTIONS)) problems.push(`${key}: unknown section (expected ${Object.keys(SECTIONS).join(', ')})`);
    }
    for (const [section, cls] of Object.entries(SECTIONS)) {
      const records = (input as Record<string, unknown>)[section] ?? [];
      if (!Array.isArray(records)) {
        problems.push(`${section}: must be an array`);
        continue;
      }
      file[section] = [];
      for (let i = 0; i < records.length; i++) {
        const { value, problems: found } = await dtoProblems(
          cls as new () => object,
          records[i],
          `${section}[${i}]`,
          'bracket',
        );
        for (const f of found) problems.push(`${f.field}: ${f.problems.join('; ')}`);
        file[section].push(value);
      }
    }
    if (problems.length) throw new ProvisioningError(problems);
    return file as unknown as ProvisionFile;
  }

  /** Every cross-reference, against the file and the database. */
  private async checkReferences(f: ProvisionFile, m: EntityManager): Promise<void> {
    const problems = await referenceProblems(f, m, this.catalog);
    if (problems.length) throw new ProvisioningError(problems);
  }

  private async write(f: ProvisionFile, m: EntityManager, dryRun: boolean): Promise<ProvisionReport> {
    return { ...(await writeSections(f, m)), dryRun };
  }
}
