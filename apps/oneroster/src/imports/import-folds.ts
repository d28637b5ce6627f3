/**
 * Runs a binding's folds during the merge (`fold-sql.ts`): notes the owners of the records each
 * records file changes (around its merge), fills the folded columns of staged owner rows before
 * their own merge, then rebuilds the other owners whose records changed and checks them. Every
 * problem is an error of the import (the transaction is rolled back).
 */
import type { ClientBase } from 'pg';
import { layoutOf, type CsvBinding } from './csv-bindings';
import type { FileLayout, RosterFileType } from './csv-layout';
import {
  captureAllOwnersSql,
  captureNamedOwnersSql,
  createAffectedSql,
  fillStagedSql,
  foldOwnersSql,
  restampFoldedSql,
  type FoldCheck,
  type FoldSpec,
} from './fold-sql';
import type { IssueLog } from './import-issues';
import type { FileMode } from './manifest';
import { reassignOrdinalsSql } from './roster-merge-sql';

export class ImportFolds {
  /** Folds whose records file was merged: their owners are rebuilt at the end. */
  private readonly pending: FoldSpec[] = [];

  constructor(
    private readonly client: ClientBase,
    private readonly tenantId: string,
    private readonly stamp: Date,
    private readonly binding: CsvBinding,
    private readonly issues: IssueLog,
    private readonly lap: (message: string) => void,
  ) {}

  /** Before a file's merge: the old owners of the records it names; and, for an owner file, its staged rows filled. */
  async beforeMerge(type: RosterFileType): Promise<void> {
    for (const spec of this.fedBy(type)) {
      await this.client.query(createAffectedSql(spec));
      await this.client.query(captureNamedOwnersSql(spec), [this.tenantId]);
    }
    const layout = layoutOf(this.binding, type);
    if (layout.filledByFolds) await this.fillStaged(layout);
  }

  /** After a records file's merge: the owners of its records now (a bulk file's: all of them). */
  async afterMerge(type: RosterFileType, mode: FileMode): Promise<void> {
    for (const spec of this.fedBy(type)) {
      await this.client.query(mode === 'bulk' ? captureAllOwnersSql(spec) : captureNamedOwnersSql(spec), [
        this.tenantId,
      ]);
      this.pending.push(spec);
    }
  }

  /** After every merge: rebuilds the owners whose records changed, renumbers what moved, runs the checks. */
  async foldOwners(): Promise<void> {
    for (const spec of this.pending) {
      const changed = (await this.client.query(foldOwnersSql(spec), [this.tenantId, this.stamp])).rowCount ?? 0;
      const owner = layoutOf(this.binding, spec.owner);
      // A user whose v1.1 role changed may move between `/students` and `/teachers`.
      const moves = owner.partitionOrdinal !== undefined && spec.columns.includes(owner.partitionOrdinal.by);
      if (changed > 0 && moves) await this.client.query(reassignOrdinalsSql(owner), [this.tenantId]);
      this.lap(`folded ${spec.name}: ${changed} ${owner.recordName}s changed`);
    }
    for (const spec of this.pending) await this.check(spec.checks);
  }

  /** The folded columns of an owner file's staged rows, from the (merged) records; then their checks. */
  private async fillStaged(layout: FileLayout): Promise<void> {
    const specs = this.binding.folds.filter((f) => f.owner === layout.type);
    for (const spec of specs) await this.client.query(fillStagedSql(spec), [this.tenantId]);
    await this.client.query(
      restampFoldedSql(
        layout.table,
        (layout.filledByFolds ?? []).map((c) => c.db),
      ),
      [this.tenantId],
    );
    for (const spec of specs) await this.check(spec.stagedChecks ?? []);
    this.lap(`filled the ${specs.map((s) => s.name).join(', ')} of ${layout.fileName}`);
  }

  private async check(checks: readonly FoldCheck[]): Promise<void> {
    for (const c of checks) {
      // Reported like reading errors: the first `maxErrors` listed.
      const params = c.sql.includes('$1') ? [this.tenantId] : [];
      const { rows } = await this.client.query<{ line: number; id: string; detail: string | null }>(
        `${c.sql} LIMIT ${this.issues.maxErrors}`,
        params,
      );
      for (const r of rows) this.issues.error(c.file, r.line, c.column, c.message(r.id, r.detail));
    }
  }

  private fedBy(type: RosterFileType): FoldSpec[] {
    return this.binding.folds.filter((f) => f.records === type);
  }
}
