/**
 * One data record of a file into the loader's row (see `row-layout.ts`): the sourcedId (valid,
 * not an app's object, not a duplicate), status and dateLastModified, `metadata.*` cells, every
 * data cell by its column's kind, then the derived columns. Every bad cell is an error with its
 * line and column; a record with errors is still read to the end to report them all.
 */
import {
  CellError,
  enumLookup,
  readBoolean,
  readDate,
  readDateTime,
  readEnum,
  readEnumList,
  readGrades,
  readList,
  readNumber,
  readObjectiveSource,
  readRefs,
  readScaleValues,
  readSourcedId,
  readStatus,
  readText,
  readUserIds,
  readYear,
} from './cell-parsers';
import { textArrayLiteral } from './copy-in';
import type { CellKind, CsvColumn, DerivedColumn, DerivedLookups } from './csv-layout';
import { METADATA_PREFIX, type CsvHeader } from './csv-header';
import type { IssueLog } from './import-issues';
import type { FileReferences } from './reference-checks';
import { LINE, METADATA, MODIFIED, SOURCED_ID, STATUS, TOMBSTONE, type RowLayout } from './row-layout';

interface ColumnReader {
  readonly spec: CsvColumn;
  readonly name: string;
  readonly required: boolean;
  /** Index of its cell in a record; -1 when the header lacks the column (read as empty). */
  readonly cell: number;
  /** Row slot of its staged value; -1 when it is not stored. */
  readonly slot: number;
  /** The staged value of an empty cell. */
  readonly empty: unknown;
  readonly read: CellRead;
  readonly lookup: ((raw: string) => string | undefined) | undefined;
}

/** A non-empty cell's staged value, or a `CellError`. */
type CellRead = (text: string, c: ColumnReader, reader: RecordReader) => unknown;

const textArray = (items: string[] | CellError) => (items instanceof CellError ? items : textArrayLiteral(items));
const json = (value: object | CellError) => (value instanceof CellError ? value : JSON.stringify(value));

const READ_CELL: Readonly<Record<CellKind, CellRead>> = {
  text: (text) => text,
  enum: (text, c) => readEnum(text, c.spec.values!, c.lookup!, c.spec.extensible),
  boolean: readBoolean,
  date: readDate,
  datetime: readDateTime,
  number: readNumber,
  year: readYear,
  list: (text) => textArrayLiteral(readList(text)),
  grades: (text) => textArray(readGrades(text)),
  enumList: (text, c) => textArray(readEnumList(text, c.spec.values!, c.lookup!, c.spec.extensible)),
  userIds: (text) => json(readUserIds(text)),
  scaleValues: (text) => json(readScaleValues(text)),
  objectiveSource: readObjectiveSource,
  ref: (text, c, reader) => {
    const ref = readSourcedId(text);
    if (!(ref instanceof CellError)) reader.reference(c.spec, ref);
    return ref;
  },
  refs: (text, c, reader) => {
    const list = readRefs(text);
    if (list instanceof CellError) return list;
    const value =
      list.length === 0 && c.spec.required ? new CellError('needs at least one sourcedId') : textArrayLiteral(list);
    for (const ref of list) reader.reference(c.spec, ref);
    return value;
  },
  ignored: () => null,
};

/** The staged value of an empty cell: empty arrays for list kinds, else null. */
const EMPTY_VALUE: Readonly<Record<CellKind, unknown>> = {
  text: null,
  enum: null,
  boolean: null,
  date: null,
  datetime: null,
  number: null,
  year: null,
  list: '{}',
  grades: '{}',
  enumList: '{}',
  userIds: '[]',
  scaleValues: null,
  objectiveSource: null,
  ref: null,
  refs: '{}',
  ignored: null,
};

interface DerivedReader {
  readonly slot: number;
  readonly from: readonly number[];
  readonly compute: DerivedColumn['compute'];
  /** Reused for every row. */
  readonly values: unknown[];
}

export class RecordReader {
  /** Delta tombstones read without errors. */
  tombstones = 0;
  private ok = true;
  private line = 0;
  private readonly file: string;
  private readonly columns: readonly ColumnReader[];
  private readonly derived: readonly DerivedReader[];

  constructor(
    private readonly row: unknown[],
    private readonly rl: RowLayout,
    private readonly header: CsvHeader,
    private readonly delta: boolean,
    private readonly ids: FileReferences,
    private readonly issues: IssueLog,
    private readonly lookups: DerivedLookups,
  ) {
    this.file = rl.layout.fileName;
    // One shape for every column (the hot loop reads them all).
    this.columns = rl.layout.columns.map((spec, i) => ({
      spec,
      name: spec.name,
      required: spec.required,
      cell: header.columns[i]!,
      slot: rl.columnSlots[i]!,
      empty: EMPTY_VALUE[spec.kind],
      read: READ_CELL[spec.kind],
      lookup: spec.values ? enumLookup(spec.values) : undefined,
    }));
    this.derived = rl.derived.map((d) => ({
      slot: d.slot,
      from: d.from,
      compute: d.column.compute,
      values: new Array<unknown>(d.from.length),
    }));
  }

  /**
   * Reads a record into the row; false when it has errors (reported). The row's sourcedId slot
   * is set only once the id passed its checks (the caller clears it after each row).
   */
  read(cells: string[], line: number): boolean {
    if (cells.length !== this.header.width) {
      this.issues.error(
        this.file,
        line,
        '',
        `the row has ${cells.length} cells but the header has ${this.header.width}`,
      );
      return false;
    }
    this.ok = true;
    this.line = line;
    const id = this.readId(cells);
    if (id === undefined) return false;
    const row = this.row;
    const status = this.readStatus(cells);
    row[LINE] = line;
    row[SOURCED_ID] = id;
    row[STATUS] = status;
    row[MODIFIED] = this.readModified(cells);
    if (this.delta && status === 'tobedeleted') {
      // A delta tombstone names a record; its other cells are not read.
      row[TOMBSTONE] = true;
      for (let i = METADATA; i < this.rl.size; i++) row[i] = null;
      if (this.ok) this.tombstones++;
      return this.ok;
    }
    row[TOMBSTONE] = false;
    this.readMetadata(cells);
    this.readColumns(cells);
    this.derive();
    return this.ok;
  }

  /** A reference read from a cell of the current record. */
  reference(spec: CsvColumn, id: string): void {
    this.ids.check(spec.ref!, id, this.line, spec.name);
  }

  private fail(column: string, message: string): void {
    this.issues.error(this.file, this.line, column, message);
    this.ok = false;
  }

  private readId(cells: string[]): string | undefined {
    const raw = this.header.sourcedId >= 0 ? cells[this.header.sourcedId]!.trim() : '';
    const id = raw === '' ? undefined : readSourcedId(raw);
    let problem: string;
    if (id === undefined) problem = 'sourcedId is required';
    else if (id instanceof CellError) problem = `sourcedId ${id.message}`;
    else if (this.ids.isAppOwned(id))
      problem = `'${id}' is a ${this.rl.layout.recordName} an app created through the API; an import cannot change or delete it`;
    else {
      const first = this.ids.claim(id, this.line);
      if (first === undefined) return id;
      problem = `duplicate sourcedId '${id}' (first on line ${first})`;
    }
    this.fail('sourcedId', problem);
    return undefined;
  }

  private readStatus(cells: string[]): string | CellError {
    const raw = this.header.status >= 0 ? cells[this.header.status]!.trim() : '';
    let status: string | CellError = 'active';
    if (raw !== '') status = readStatus(raw);
    else if (this.delta) status = new CellError('status is required in delta files');
    if (status instanceof CellError) this.fail('status', status.message);
    return status;
  }

  /** A delta row's own time; null in bulk files (their rows carry the import's), but still checked. */
  private readModified(cells: string[]): string | null | CellError {
    const raw = this.header.modified >= 0 ? cells[this.header.modified]!.trim() : '';
    let modified: string | null | CellError = null;
    if (raw !== '') modified = readDateTime(raw);
    else if (this.delta) modified = new CellError('dateLastModified is required in delta files');
    if (modified instanceof CellError) this.fail('dateLastModified', modified.message);
    return this.delta ? modified : null;
  }

  private readMetadata(cells: string[]): void {
    let metadata: Record<string, string> | null = null;
    for (const [key, index] of this.header.metadata) {
      const v = readText(cells[index]);
      if (v instanceof CellError) this.fail(`${METADATA_PREFIX}${key}`, `${METADATA_PREFIX}${key} ${v.message}`);
      else if (v !== null) (metadata ??= {})[key] = v;
    }
    this.row[METADATA] = metadata ? JSON.stringify(metadata) : null;
  }

  private readColumns(cells: string[]): void {
    const row = this.row;
    for (const c of this.columns) {
      const name = c.name;
      const text = c.cell >= 0 ? readText(cells[c.cell]) : null;
      let value: unknown;
      if (text instanceof CellError) {
        this.fail(name, `${name} ${text.message}`);
        value = null;
      } else if (text === null) {
        if (c.required) this.fail(name, `${name} is required`);
        value = c.empty;
      } else {
        value = c.read(text, c, this);
        if (value instanceof CellError) {
          this.fail(name, `${name} ${value.message}`);
          value = null;
        }
      }
      if (c.slot >= 0) row[c.slot] = value;
    }
  }

  private derive(): void {
    const row = this.row;
    for (const d of this.derived) {
      for (let k = 0; k < d.from.length; k++) d.values[k] = row[d.from[k]!];
      row[d.slot] = d.compute(d.values, this.lookups);
    }
  }
}
