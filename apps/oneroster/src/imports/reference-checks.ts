/**
 * The sourcedIds of one file as it is read: duplicates; references to other types' records (at
 * once) and to the file's own type (once the whole file is read: they may point forward); what
 * the reference index learns from each row (its id, the kept `refIndex` values); parent cycles.
 */
import type { CsvColumn, RosterFileType } from './csv-layout';
import type { IssueLog } from './import-issues';
import { findCycles, type ReferenceIndex } from './reference-index';
import { LINE, SOURCED_ID, TOMBSTONE, type RowLayout } from './row-layout';

interface PendingRef {
  id: string;
  line: number;
  column: string;
}

export class FileReferences {
  private readonly type: RosterFileType;
  private readonly file: string;
  private readonly appWritable: boolean;
  /** Line of each id read, unless `linesInIndex`. */
  private readonly seen = new Map<string, number>();
  private readonly pending: PendingRef[] = [];
  /**
   * Bulk files that keep nothing else in the index (users, enrollments, ...: the big ones) keep
   * each id's line there, one map rather than two for millions of ids; the others, and delta
   * files (whose index also holds stored ids), in `seen`.
   */
  private readonly linesInIndex: boolean;
  private readonly extraSlot: number;
  private readonly parentSlot: number;
  private readonly parentColumn: CsvColumn | undefined;
  /** child → parent, when the type keeps parents. */
  private readonly parents: Map<string, string> | undefined;

  constructor(
    rl: RowLayout,
    private readonly refs: ReferenceIndex,
    private readonly issues: IssueLog,
    delta: boolean,
  ) {
    const { type, fileName, refIndex, columns, appWritable } = rl.layout;
    this.type = type;
    this.file = fileName;
    this.appWritable = appWritable === true;
    this.extraSlot = refIndex?.extra ? rl.slot(refIndex.extra) : -1;
    this.parentSlot = refIndex?.parent ? rl.slot(refIndex.parent) : -1;
    this.parentColumn = refIndex?.parent ? columns.find((c) => c.db === refIndex.parent) : undefined;
    this.parents = refIndex?.parent ? refs.parents(type) : undefined;
    this.linesInIndex = !delta && !refIndex?.extra && !refIndex?.parent;
  }

  /** The id names a gradebook object an app wrote through the API: an import may not touch it. */
  isAppOwned(id: string): boolean {
    return this.appWritable && this.refs.isAppOwned(this.type, id);
  }

  /** The line of an earlier row with this id, if any; otherwise the id is taken, on `line`. */
  claim(id: string, line: number): number | undefined {
    if (this.linesInIndex) return this.refs.has(this.type, id) ? (this.refs.line(this.type, id) ?? 0) : undefined;
    const first = this.seen.get(id);
    if (first === undefined) this.seen.set(id, line);
    return first;
  }

  /** A reference in a cell: another type's is checked now, the file's own type's at `finish`. */
  check(target: RosterFileType, id: string, line: number, column: string): void {
    if (target === this.type) {
      if (!this.refs.has(target, id)) this.pending.push({ id, line, column });
    } else if (!this.refs.has(target, id)) {
      this.issues.error(
        this.file,
        line,
        column,
        `'${id}' is not a known ${this.refs.layout(target).recordName} sourcedId (looked ${this.refs.scope(target)})`,
      );
    }
  }

  /** Adds a read row's id (and kept values) to the index; a tombstone leaves the record (and references to it) in place. */
  register(row: readonly unknown[]): void {
    const id = row[SOURCED_ID] as string;
    if (row[TOMBSTONE] === true) return;
    const extra =
      this.extraSlot >= 0
        ? ((row[this.extraSlot] as string | null) ?? '')
        : this.linesInIndex
          ? (row[LINE] as number)
          : '';
    this.refs.add(this.type, id, extra);
    if (this.parents) {
      const parent = row[this.parentSlot];
      if (typeof parent === 'string') this.parents.set(id, parent);
      else this.parents.delete(id);
    }
  }

  /** After the last row: references to the file's own type that never appeared, and parent cycles. */
  finish(): void {
    const { refs, type } = this;
    for (const p of this.pending) {
      if (!refs.has(type, p.id)) {
        this.issues.error(
          this.file,
          p.line,
          p.column,
          `'${p.id}' is not a known ${refs.layout(type).recordName} sourcedId (looked ${refs.scope(type)})`,
        );
      }
    }
    const column = this.parentColumn;
    if (this.parents && column?.ref === type) {
      for (const id of findCycles(this.seen.keys(), this.parents)) {
        this.issues.error(
          this.file,
          this.seen.get(id) ?? 0,
          column.name,
          `'${id}' is its own ancestor (${column.name} cycle)`,
        );
      }
    }
  }
}
