/**
 * Where a file's valid rows go: to the file's staging table, or, for a direct load (a bulk file
 * for a tenant with no rows in that table yet), straight into the roster table, numbered as read
 * (overall and per partition) for as long as the sourcedIds keep increasing; the first id out of
 * order sends the rest of the file to staging. A direct load's change-feed events are written
 * by the importer once its COPY ends (`direct-load-events.ts`).
 */
import type { ClientBase } from 'pg';
import { CopyBuffer, copyLine } from './copy-buffer';
import { copyValue } from './copy-in';
import { DirectLoadEvents } from './direct-load-events';
import { copyDirectSql, copyStagingSql, stagingTable } from './roster-merge-sql';
import { METADATA, MODIFIED, SOURCED_ID, STATUS, type RowLayout } from './row-layout';

export interface DirectLoad {
  readonly tenantId: string;
  /** The import's time: bulk rows carry it as their dateLastModified. */
  readonly stamp: Date;
}

/** A character that UTF-16 and UTF-8 order differently (JS compares UTF-16 code units). */
const ORDER_SENSITIVE = /[\uD800-\uFFFF]/;

/** The direct COPY's line: sourced_id, status, date_last_modified, metadata, the data columns, ordinal(s), tenant. */
function directLine(rl: RowLayout, direct: DirectLoad): (row: readonly unknown[]) => string {
  const stamp = direct.stamp.toISOString();
  const tail = `\t${direct.tenantId}`;
  const width = rl.width;
  return (r) =>
    `${copyValue(r[SOURCED_ID])}\t${copyValue(r[STATUS])}\t${copyValue(r[MODIFIED] ?? stamp)}\t${copyLine(r, METADATA, width, tail)}`;
}

export class RowOutput {
  /** Rows that went straight into the roster table. */
  directRows = 0;
  /** Rows staged for the merge (set by `finish`). */
  staged = 0;
  /** Time spent waiting for the database (ms). */
  waitedMs = 0;
  private readonly staging: CopyBuffer;
  private current: CopyBuffer;
  private direct: boolean;
  private nextOrdinal = 0;
  private readonly partitionNext = new Map<string, number>();
  private previousId = '';

  /** Where a file's rows go; a direct load's feed events are taken over from the table's trigger. */
  static async open(client: ClientBase, rl: RowLayout, batchSize: number, direct?: DirectLoad): Promise<RowOutput> {
    const events = direct ? await DirectLoadEvents.takeOver(client, rl.layout.table, direct.tenantId) : undefined;
    return new RowOutput(client, rl, batchSize, direct, events);
  }

  private constructor(
    private readonly client: ClientBase,
    private readonly rl: RowLayout,
    batchSize: number,
    direct?: DirectLoad,
    private events?: DirectLoadEvents,
  ) {
    this.staging = new CopyBuffer(client, copyStagingSql(rl.layout), (r) => copyLine(r, 0, rl.stagedWidth), batchSize);
    this.current = direct
      ? new CopyBuffer(client, copyDirectSql(rl.layout), directLine(rl, direct), batchSize)
      : this.staging;
    this.direct = direct !== undefined;
  }

  /**
   * Whether the row may go where rows go now (a direct load numbers it). False when a direct load
   * meets an id out of order: call `toStaging` before pushing it.
   */
  accepts(row: unknown[]): boolean {
    if (!this.direct) return true;
    const id = row[SOURCED_ID] as string;
    if (id <= this.previousId || ORDER_SENSITIVE.test(id)) return false;
    this.previousId = id;
    row[this.rl.ordinal] = this.nextOrdinal++;
    if (this.rl.partitionOrdinal >= 0) {
      const key = row[this.rl.partitionKey] as string;
      const n = this.partitionNext.get(key) ?? 0;
      this.partitionNext.set(key, n + 1);
      row[this.rl.partitionOrdinal] = n;
    }
    return true;
  }

  /** Ends a direct load: what was sent stays in the table; the rest of the file goes to staging. */
  async toStaging(): Promise<void> {
    await this.endCurrent();
    this.current = this.staging;
    this.direct = false;
  }

  push(row: readonly unknown[]): void {
    this.current.push(row);
    // Set for a direct load only, and dropped when it ends (`toStaging`, `finish`).
    this.events?.add(row[SOURCED_ID] as string, row[STATUS]);
  }

  /** Sends a batch when one is full (once per batch of records, not per row). */
  maybeFlush(): Promise<void> {
    return this.current.maybeFlush();
  }

  /** The file is valid: sends the rest and refreshes the staging table's statistics. */
  async finish(): Promise<void> {
    await this.endCurrent();
    if (this.direct) return;
    this.staged = this.staging.staged;
    await this.client.query(`ANALYZE ${stagingTable(this.rl.layout)}`);
  }

  /**
   * Ends the COPY rows go to now; for a direct load, writes its events once that COPY has ended
   * (before any other statement of the import) and drops them.
   */
  private async endCurrent(): Promise<void> {
    await this.current.finish();
    this.waitedMs += this.current.waitedMs;
    if (!this.direct) return;
    this.directRows = this.current.staged;
    const events = this.events;
    this.events = undefined;
    await events?.write();
  }

  /** The import failed: nothing more is sent. */
  discard(): Promise<void> {
    return this.current.discard();
  }
}
