/**
 * Where each value of a file's rows sits in the loader's row array, by name. Computed once per
 * file; the hot loop then reads and writes one reused array through these named slots.
 *
 * A row holds the staging table's columns in table order: the prefix (`_line`, `_tombstone`,
 * `sourced_id`, `status`, `date_last_modified`, `metadata`), then the staged data columns (the
 * stored CSV columns in the binding's order, then the derived ones, then those the folds fill);
 * for a direct load, then the ordinal and the partition ordinal; last, the values of columns read
 * and checked but not stored (never sent).
 */
import type { DerivedColumn, FileLayout } from './csv-layout';
import { STAGING_PREFIX, stagedDataColumns } from './roster-merge-sql';

function prefixSlot(name: string): number {
  const slot = STAGING_PREFIX.findIndex((c) => c.name === name);
  if (slot < 0) throw new TypeError(`the staging prefix has no column ${name}`);
  return slot;
}

/** The row's line in the file. */
export const LINE = prefixSlot('_line');
/** true for a delta `tobedeleted` row (it only names a record). */
export const TOMBSTONE = prefixSlot('_tombstone');
/** The row's sourcedId; `undefined` until a row's id has passed its checks. */
export const SOURCED_ID = prefixSlot('sourced_id');
export const STATUS = prefixSlot('status');
/** dateLastModified (null in bulk files: the import's time is stored). */
export const MODIFIED = prefixSlot('date_last_modified');
/** `metadata.*` cells as a JSON object, or null. The slots from here on are the row's data. */
export const METADATA = prefixSlot('metadata');
/** First slot of the data columns. */
export const DATA_START = STAGING_PREFIX.length;

/** The header names of the prefix values a row carries. */
const PREFIX_HEADERS: ReadonlyMap<string, number> = new Map([
  ['sourcedId', SOURCED_ID],
  ['status', STATUS],
  ['dateLastModified', MODIFIED],
]);

export interface DerivedSlot {
  readonly slot: number;
  /** Slots of `column.from`, in order. */
  readonly from: readonly number[];
  readonly column: DerivedColumn;
}

export class RowLayout {
  /** Slots written to the staging table (the prefix and the data columns). */
  readonly stagedWidth: number;
  /** Slots sent by a direct load: the staged ones, then the ordinal(s). */
  readonly width: number;
  /** Slots of a row: `width`, then the checked-only columns' values. */
  readonly size: number;
  /** Direct load: slot of the ordinal (-1 otherwise). */
  readonly ordinal: number;
  /** Direct load of a partitioned table: slot of the partition ordinal, and of the value it partitions by (-1 otherwise). */
  readonly partitionOrdinal: number;
  readonly partitionKey: number;
  /** Per `layout.columns`, the slot of its staged value; -1 for a column that is not stored. */
  readonly columnSlots: readonly number[];
  readonly derived: readonly DerivedSlot[];
  private readonly slots = new Map<string, number>();

  constructor(
    readonly layout: FileLayout,
    direct: boolean,
  ) {
    STAGING_PREFIX.forEach((c, i) => this.slots.set(c.name, i));
    stagedDataColumns(layout).forEach((c, i) => this.slots.set(c.name, DATA_START + i));
    this.stagedWidth = this.slots.size;
    const part = layout.partitionOrdinal;
    this.width = direct ? this.stagedWidth + (part ? 2 : 1) : this.stagedWidth;
    this.ordinal = direct ? this.stagedWidth : -1;
    this.partitionOrdinal = direct && part ? this.stagedWidth + 1 : -1;
    this.partitionKey = direct && part ? this.slot(part.by) : -1;
    let transient = this.width;
    // A column read but not stored (not `ignored`) still has a value rules may read.
    this.columnSlots = layout.columns.map((c) =>
      c.db !== undefined ? this.slot(c.db) : c.kind === 'ignored' ? -1 : transient++,
    );
    this.size = transient;
    this.derived = (layout.derived ?? []).map((column) => ({
      slot: this.slot(column.db),
      from: column.from.map((h) => this.slotOf(h)),
      column,
    }));
  }

  /** Slot of a staged column (prefix or data) by its table name. */
  slot(name: string): number {
    const slot = this.slots.get(name);
    if (slot === undefined) throw new TypeError(`${this.layout.fileName} stages no column ${name}`);
    return slot;
  }

  /** Slot of the value read from a CSV column (`sourcedId`, `status`, `dateLastModified` or a stored data column), by header name. */
  slotOf(header: string): number {
    const prefix = PREFIX_HEADERS.get(header);
    if (prefix !== undefined) return prefix;
    const index = this.layout.columns.findIndex((c) => c.name === header);
    const slot = index < 0 ? -1 : this.columnSlots[index]!;
    if (slot < 0) throw new TypeError(`${this.layout.fileName} stores no column ${header}`);
    return slot;
  }

  /** The slots of a set of CSV columns, under the same names. */
  slotsOf<K extends string>(headers: Readonly<Record<K, string>>): Readonly<Record<K, number>> {
    const out = {} as Record<K, number>;
    for (const key of Object.keys(headers) as K[]) out[key] = this.slotOf(headers[key]);
    return out;
  }

  /** A row to reuse for every record of the file. */
  newRow(): unknown[] {
    return new Array<unknown>(this.size);
  }
}
