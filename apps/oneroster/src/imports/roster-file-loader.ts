/**
 * Reads one CSV file of a package: checks the header, validates every row (values,
 * enumerations, dates, duplicates, references), and streams valid rows into the file's staging
 * table while it reads (the database ingests one batch while the next is parsed). Once any error
 * has been found nothing more is staged, but reading goes on to report further errors.
 */
import type { Readable } from 'node:stream';
import type { ClientBase } from 'pg';
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
  readRefs,
  readSourcedId,
  readStatus,
  readText,
  readUserIds,
  readYear,
} from './cell-parsers';
import { UNSCORED_STATUSES } from '../gradebook/gradebook-input';
import { csvBatches, CsvSyntaxError } from './csv-records';
import { standardHeaders, type CsvColumn, type FileLayout, type RosterFileType } from './csv-layout';
import { didYouMean, type IssueLog } from './import-issues';
import type { FileMode } from './manifest';
import { findCycles, SOURCED_ID_MUST_BE, type ReferenceIndex } from './reference-index';
import { copyFrom, copyValue, textArrayLiteral } from './copy-in';
import { copyDirectSql, copyStagingSql, createStagingSql, stagedDataColumns, stagingTable, STAGING_PREFIX } from './roster-merge-sql';

export interface FileLoadResult {
  /** Data rows read (blank lines excluded). */
  rows: number;
  /** Rows inserted straight into the roster table (first bulk load, while in sourcedId order). */
  directRows: number;
  /** Rows staged for the merge (0 once the import has failed). */
  staged: number;
  /** Delta tombstone rows among the staged ones. */
  tombstones: number;
  /** Time spent waiting for the database while reading (ms): reading outpaced writing. */
  waitedMs: number;
}

export interface LoaderContext {
  readonly client: ClientBase;
  readonly issues: IssueLog;
  readonly refs: ReferenceIndex;
  /** Rows per staging insert. */
  readonly batchSize: number;
}

const METADATA_PREFIX = 'metadata.';

const RECORD_NAME: Readonly<Record<RosterFileType, string>> = {
  orgs: 'org',
  academicSessions: 'academic session',
  courses: 'course',
  classes: 'class',
  users: 'user',
  enrollments: 'enrollment',
  demographics: 'demographics',
  resources: 'resource',
  classResources: 'class resource',
  courseResources: 'course resource',
  categories: 'category',
  lineItems: 'line item',
  results: 'result',
};

/**
 * Rows waiting to be sent, as COPY text lines; one COPY in flight while the next batch is read
 * (the database ingests one batch while the file's next rows are parsed and checked).
 */
class CopyBuffer {
  private lines: string[] = [];
  private inflight: Promise<unknown> | undefined;
  count = 0;
  staged = 0;
  waitedMs = 0;

  constructor(
    private readonly client: ClientBase,
    private readonly sql: string,
    private readonly toLine: (row: readonly unknown[]) => string,
    private readonly batchSize: number,
  ) {}

  push(row: readonly unknown[]): void {
    this.lines.push(this.toLine(row));
    this.count++;
  }

  /** Sends the buffer when full; waits only for the previous batch. */
  async maybeFlush(): Promise<void> {
    if (this.count >= this.batchSize) await this.flush();
  }

  private async wait(): Promise<void> {
    if (!this.inflight) return;
    const t = Date.now();
    try {
      await this.inflight;
    } finally {
      this.waitedMs += Date.now() - t;
      this.inflight = undefined;
    }
  }

  private async flush(): Promise<void> {
    await this.wait();
    if (this.count === 0) return;
    const data = Buffer.from(this.lines.join(''), 'utf8');
    this.staged += this.count;
    this.lines = [];
    this.count = 0;
    const pending = copyFrom(this.client, this.sql, data);
    pending.catch(() => undefined); // observed when awaited
    this.inflight = pending;
  }

  async finish(): Promise<void> {
    await this.flush();
    await this.wait();
  }

  /** Drops what is buffered (the import failed). */
  async discard(): Promise<void> {
    this.lines = [];
    this.count = 0;
    await this.wait().catch(() => undefined);
  }
}

/** A COPY text line of `row[from..to)`, then `suffix` (already escaped), then a newline. */
function copyLine(row: readonly unknown[], from: number, to: number, suffix = ''): string {
  let line = copyValue(row[from]);
  for (let i = from + 1; i < to; i++) line += `\t${copyValue(row[i])}`;
  return `${line}${suffix}\n`;
}

interface ColumnReader {
  readonly spec: CsvColumn;
  /** Index in the record, -1 when the header lacks the column. */
  readonly index: number;
  readonly lookup?: (raw: string) => string | undefined;
}

interface PendingRef {
  id: string;
  line: number;
  column: string;
}

/** A character that UTF-16 and UTF-8 order differently (JS compares UTF-16 code units). */
const ORDER_SENSITIVE = /[\uD800-\uFFFF]/;

/**
 * Loads one file into its staging table (created here). With `direct` (a bulk file for a tenant
 * with no rows in that table yet), rows go straight into the roster table for as long as the
 * file is in sourcedId order, and to staging from the first row that is not.
 */
export async function loadRosterFile(
  ctx: LoaderContext,
  layout: FileLayout,
  mode: FileMode,
  input: Readable,
  direct?: { tenantId: string; stamp: Date },
): Promise<FileLoadResult> {
  const { issues, refs } = ctx;
  const file = layout.fileName;
  const delta = mode === 'delta';
  const result: FileLoadResult = { rows: 0, directRows: 0, staged: 0, tombstones: 0, waitedMs: 0 };
  const dataColumns = stagedDataColumns(layout);
  const baseWidth = STAGING_PREFIX.length + dataColumns.length;
  const part = layout.partitionOrdinal;
  const width = direct ? baseWidth + (part ? 2 : 1) : baseWidth;
  await ctx.client.query(createStagingSql(layout));
  const staging = new CopyBuffer(ctx.client, copyStagingSql(layout), (r) => copyLine(r, 0, baseWidth), ctx.batchSize);
  let buffer = staging;
  if (direct) {
    // sourced_id .. data columns, ordinal(s), then the tenant; bulk rows carry the import's time.
    const stamp = direct.stamp.toISOString();
    const tail = `\t${direct.tenantId}`;
    buffer = new CopyBuffer(
      ctx.client,
      copyDirectSql(layout),
      (r) => `${copyValue(r[2])}\t${copyValue(r[3])}\t${copyValue(r[4] ?? stamp)}\t${copyLine(r, 5, width, tail)}`,
      ctx.batchSize,
    );
  }
  // Direct load: rows numbered as read, overall and per partition, while ids keep increasing;
  // the first id out of order sends the rest of the file to staging.
  let directOn = direct !== undefined;
  let nextOrdinal = 0;
  const partitionNext = new Map<string, number>();
  const partitionAt = part ? STAGING_PREFIX.length + dataColumns.findIndex((c) => c.name === part.by) : -1;
  let previousId = '';
  const stillOrdered = (): boolean => {
    const id = row[2] as string;
    if (id <= previousId || ORDER_SENSITIVE.test(id)) return false;
    previousId = id;
    row[baseWidth] = nextOrdinal++;
    if (part) {
      const key = row[partitionAt] as string;
      const n = partitionNext.get(key) ?? 0;
      partitionNext.set(key, n + 1);
      row[baseWidth + 1] = n;
    }
    return true;
  };

  let readers: ColumnReader[] | undefined;
  let sourcedIdAt = -1;
  let statusAt = -1;
  let modifiedAt = -1;
  let metadataAt: [string, number][] = [];
  let headerWidth = 0;
  const seen = new Map<string, number>();
  const pending: PendingRef[] = [];
  const selfRef = new Set(layout.columns.filter((c) => c.ref === layout.type).map((c) => c.name));
  const parentColumn = layout.columns.find((c) => c.name === 'parentSourcedId');
  const parents = parentColumn ? refs.parents(layout.type) : undefined;
  const mustBe = SOURCED_ID_MUST_BE[layout.type];
  const row: unknown[] = new Array(width);
  const derived = layout.derived;
  /** Position in `row` of a staged data column. */
  const pos = (db: string | undefined): number => (db === undefined ? -1 : STAGING_PREFIX.length + dataColumns.findIndex((c) => c.name === db));
  const derivedFrom = pos(derived?.from);
  const extraAt = layout.type === 'orgs' ? pos('type') : layout.type === 'classes' ? pos('school_sourced_id') : -1;
  // Bulk files without parents or extras (users, enrollments, ...: the big ones) keep each id's
  // line in the reference index, one map rather than two for millions of ids; the others, and
  // delta files (whose index also holds stored ids), in `seen`.
  const linesInIndex = !delta && extraAt < 0 && !parentColumn;
  const firstLine = (id: string): number | undefined => (linesInIndex ? (refs.has(layout.type, id) ? (refs.line(layout.type, id) ?? 0) : undefined) : seen.get(id));
  const parentAt = pos(parentColumn?.db);
  const idx = {
    start: pos('start_date'),
    end: pos('end_date'),
    begin: pos('begin_date'),
    cls: pos('class_sourced_id'),
    school: pos('school_sourced_id'),
    min: pos('result_value_min'),
    max: pos('result_value_max'),
    score: pos('score'),
    scoreStatus: pos('score_status'),
  };

  const readHeader = (cells: string[]): boolean => {
    const names = cells.map((c) => c.trim());
    const known = standardHeaders(layout);
    const positions = new Map<string, number>();
    let ok = true;
    names.forEach((name, i) => {
      if (positions.has(name)) {
        issues.error(file, 1, name, `column '${name}' appears twice`);
        ok = false;
      } else positions.set(name, i);
      if (!known.includes(name) && !(name.startsWith(METADATA_PREFIX) && name.length > METADATA_PREFIX.length)) {
        issues.error(file, 1, name, `unknown column '${name}'${didYouMean(name, known)}; extension columns must be named 'metadata.<name>'`);
        ok = false;
      }
    });
    const need = (name: string, required: boolean, why: string) => {
      if (positions.has(name)) return;
      if (required) {
        issues.error(file, 1, name, `missing column '${name}'${why}`);
        ok = false;
      } else {
        issues.warn(file, 1, name, `column '${name}' is missing; read as empty`);
      }
    };
    need('sourcedId', true, '');
    need('status', delta, delta ? ' (required in delta files)' : '');
    need('dateLastModified', delta, delta ? ' (required in delta files)' : '');
    for (const c of layout.columns) need(c.name, c.required, '');
    sourcedIdAt = positions.get('sourcedId') ?? -1;
    statusAt = positions.get('status') ?? -1;
    modifiedAt = positions.get('dateLastModified') ?? -1;
    metadataAt = [...positions].filter(([n]) => n.startsWith(METADATA_PREFIX)).map(([n, i]) => [n.slice(METADATA_PREFIX.length), i]);
    headerWidth = names.length;
    readers = layout.columns.map((spec) => ({
      spec,
      index: positions.get(spec.name) ?? -1,
      ...(spec.values ? { lookup: enumLookup(spec.values) } : {}),
    }));
    return ok;
  };

  const checkRef = (target: RosterFileType, id: string, line: number, column: string): void => {
    if (target === layout.type) {
      if (!refs.has(target, id)) pending.push({ id, line, column });
    } else if (!refs.has(target, id)) {
      issues.error(file, line, column, `'${id}' is not a known ${RECORD_NAME[target]} sourcedId (looked ${refs.scope(target)})`);
    }
  };

  /** Validates one record into `row`; false when it has errors (already reported). */
  const readRecord = (cells: string[], line: number): boolean => {
    if (cells.length !== headerWidth) {
      issues.error(file, line, '', `the row has ${cells.length} cells but the header has ${headerWidth}`);
      return false;
    }
    let ok = true;
    const bad = (column: string, message: string) => {
      issues.error(file, line, column, message);
      ok = false;
    };
    const rawId = sourcedIdAt >= 0 ? cells[sourcedIdAt]!.trim() : '';
    if (rawId === '') {
      bad('sourcedId', 'sourcedId is required');
      return false;
    }
    const id = readSourcedId(rawId);
    if (id instanceof CellError) {
      bad('sourcedId', `sourcedId ${id.message}`);
      return false;
    }
    if (layout.appWritable && refs.isAppOwned(layout.type, id)) {
      bad('sourcedId', `'${id}' is a ${RECORD_NAME[layout.type]} an app created through the API; an import cannot change or delete it`);
      return false;
    }
    const first = firstLine(id);
    if (first !== undefined) {
      bad('sourcedId', `duplicate sourcedId '${id}' (first on line ${first})`);
      return false;
    }
    if (!linesInIndex) seen.set(id, line);

    const rawStatus = statusAt >= 0 ? cells[statusAt]!.trim() : '';
    let status: string | CellError = 'active';
    if (rawStatus !== '') status = readStatus(rawStatus);
    else if (delta) status = new CellError('status is required in delta files');
    if (status instanceof CellError) bad('status', status.message);

    const rawModified = modifiedAt >= 0 ? cells[modifiedAt]!.trim() : '';
    let modified: string | null | CellError = null;
    if (rawModified !== '') modified = readDateTime(rawModified);
    else if (delta) modified = new CellError('dateLastModified is required in delta files');
    if (modified instanceof CellError) bad('dateLastModified', modified.message);
    // Bulk files replace the data as of this import: their timestamps are the import's.
    if (!delta) modified = null;

    row[0] = line;
    row[2] = id;
    row[3] = status;
    row[4] = modified;
    if (delta && status === 'tobedeleted') {
      // A delta tombstone names a record; its other cells are not read.
      row[1] = true;
      for (let i = 5; i < width; i++) row[i] = null;
      if (ok) result.tombstones++;
      return ok;
    }
    row[1] = false;

    let metadata: Record<string, string> | null = null;
    for (const [key, index] of metadataAt) {
      const v = readText(cells[index]);
      if (v instanceof CellError) bad(`${METADATA_PREFIX}${key}`, `${METADATA_PREFIX}${key} ${v.message}`);
      else if (v !== null) (metadata ??= {})[key] = v;
    }
    row[5] = metadata ? JSON.stringify(metadata) : null;

    let at = STAGING_PREFIX.length;
    for (const r of readers!) {
      const spec = r.spec;
      const text = r.index >= 0 ? readText(cells[r.index]) : null;
      if (text instanceof CellError) {
        bad(spec.name, `${spec.name} ${text.message}`);
        if (spec.db) row[at++] = null;
        continue;
      }
      if (text === null) {
        if (spec.required) bad(spec.name, `${spec.name} is required`);
        if (spec.db) row[at++] = spec.kind === 'list' || spec.kind === 'grades' || spec.kind === 'enumList' || spec.kind === 'refs' ? '{}' : spec.kind === 'userIds' ? '[]' : null;
        continue;
      }
      let value: unknown;
      switch (spec.kind) {
        case 'text':
          value = text;
          break;
        case 'enum':
          value = readEnum(text, spec.values!, r.lookup!);
          break;
        case 'boolean':
          value = readBoolean(text);
          break;
        case 'date':
          value = readDate(text);
          break;
        case 'datetime':
          value = readDateTime(text);
          break;
        case 'number':
          value = readNumber(text);
          break;
        case 'enumList': {
          const values = readEnumList(text, spec.values!, r.lookup!);
          value = values instanceof CellError ? values : textArrayLiteral(values);
          break;
        }
        case 'year':
          value = readYear(text);
          break;
        case 'list':
          value = textArrayLiteral(readList(text));
          break;
        case 'grades': {
          const grades = readGrades(text);
          value = grades instanceof CellError ? grades : textArrayLiteral(grades);
          break;
        }
        case 'userIds': {
          const ids = readUserIds(text);
          value = ids instanceof CellError ? ids : JSON.stringify(ids);
          break;
        }
        case 'ref': {
          const ref = readSourcedId(text);
          if (!(ref instanceof CellError)) checkRef(spec.ref!, ref, line, spec.name);
          value = ref;
          break;
        }
        case 'refs': {
          const list = readRefs(text);
          if (list instanceof CellError) value = list;
          else {
            if (list.length === 0 && spec.required) value = new CellError('needs at least one sourcedId');
            else value = textArrayLiteral(list);
            for (const ref of list) checkRef(spec.ref!, ref, line, spec.name);
          }
          break;
        }
        case 'ignored':
          continue;
      }
      if (value instanceof CellError) {
        bad(spec.name, `${spec.name} ${value.message}`);
        value = null;
      }
      row[at++] = value;
    }
    if (derived) row[at] = typeof row[derivedFrom] === 'string' ? derived.compute(row[derivedFrom] as string) : null;
    return ok;
  };

  /** Rules across fields and files. */
  const checkRecord = (line: number): void => {
    const id = row[2] as string;
    switch (layout.type) {
      case 'academicSessions': {
        const start = row[idx.start];
        const end = row[idx.end];
        if (typeof start === 'string' && typeof end === 'string' && end < start) issues.error(file, line, 'endDate', `endDate ${end} is before startDate ${start}`);
        break;
      }
      case 'classes': {
        const school = row[idx.school];
        const type = typeof school === 'string' ? refs.extra('orgs', school) : undefined;
        if (type !== undefined && type !== '' && type !== 'school') issues.error(file, line, 'schoolSourcedId', `'${school}' is an org of type ${type}, not a school`);
        break;
      }
      case 'enrollments': {
        const cls = row[idx.cls];
        const school = row[idx.school];
        const classSchool = typeof cls === 'string' ? refs.extra('classes', cls) : undefined;
        if (classSchool && typeof school === 'string' && classSchool !== school) {
          issues.error(file, line, 'schoolSourcedId', `'${school}' is not the school of class '${cls}' (${classSchool})`);
        }
        const begin = row[idx.begin];
        const end = row[idx.end];
        if (typeof begin === 'string' && typeof end === 'string' && end < begin) issues.error(file, line, 'endDate', `endDate ${end} is before beginDate ${begin}`);
        break;
      }
      case 'lineItems': {
        const min = row[idx.min];
        const max = row[idx.max];
        if (typeof min === 'number' && typeof max === 'number' && min > max) issues.error(file, line, 'resultValueMin', `resultValueMin ${min} is greater than resultValueMax ${max}`);
        break;
      }
      case 'results': {
        const status = row[idx.scoreStatus];
        if (row[idx.score] === null && typeof status === 'string' && !UNSCORED_STATUSES.has(status)) {
          issues.error(file, line, 'score', `score is required unless scoreStatus is exempt or not submitted (it is '${status}')`);
        }
        break;
      }
      default:
        break;
    }
    if (mustBe && refs.isChecked(mustBe) && !refs.has(mustBe, id)) {
      issues.error(file, line, 'sourcedId', `'${id}' is not a known user sourcedId (looked ${refs.scope(mustBe)}); demographics describe users`);
    }
  };

  const register = (): void => {
    const id = row[2] as string;
    if (row[1] === true) return; // a tombstone leaves the record (and references to it) in place
    const extra = extraAt >= 0 ? ((row[extraAt] as string | null) ?? '') : linesInIndex ? (row[0] as number) : '';
    refs.add(layout.type, id, extra);
    if (parents) {
      const parent = row[parentAt];
      if (typeof parent === 'string') parents.set(id, parent);
      else parents.delete(id);
    }
  };

  let headerDone = false;
  try {
    for await (const batch of csvBatches(input, 2000)) {
      const { records, lines } = batch;
      let i = 0;
      if (!headerDone) {
        headerDone = true;
        if (!readHeader(records[0]!)) {
          refs.markUnreliable(layout.type);
          await buffer.discard();
          return result;
        }
        i = 1;
      }
      for (; i < records.length; i++) {
        result.rows++;
        const line = lines[i]!;
        const ok = readRecord(records[i]!, line);
        if (row[2] !== undefined && typeof row[2] === 'string') {
          if (ok) checkRecord(line);
          register();
        }
        if (ok && !issues.failed) {
          if (directOn && !stillOrdered()) {
            await buffer.finish();
            result.directRows = buffer.staged;
            result.waitedMs += buffer.waitedMs;
            buffer = staging;
            directOn = false;
          }
          buffer.push(row);
        }
        row[2] = undefined;
        if (issues.full) break;
      }
      if (issues.full) break;
      if (!issues.failed) await buffer.maybeFlush();
    }
  } catch (err) {
    if (!(err instanceof CsvSyntaxError)) {
      await buffer.discard();
      throw err;
    }
    issues.error(file, err.line, '', `malformed CSV: ${err.message}`);
  }
  if (!headerDone) {
    issues.error(file, 1, '', 'the file is empty (no header row)');
    refs.markUnreliable(layout.type);
  }

  for (const p of pending) {
    if (!refs.has(layout.type, p.id)) {
      issues.error(file, p.line, p.column, `'${p.id}' is not a known ${RECORD_NAME[layout.type]} sourcedId (looked ${refs.scope(layout.type)})`);
    }
  }
  if (parents && selfRef.size > 0) {
    for (const id of findCycles(seen.keys(), parents)) {
      issues.error(file, seen.get(id) ?? 0, 'parentSourcedId', `'${id}' is its own ancestor (parentSourcedId cycle)`);
    }
  }

  if (issues.failed) {
    await buffer.discard();
  } else {
    await buffer.finish();
    result.waitedMs += buffer.waitedMs;
    if (directOn) result.directRows = buffer.staged;
    else {
      result.staged = staging.staged;
      await ctx.client.query(`ANALYZE ${stagingTable(layout)}`);
    }
  }
  return result;
}
