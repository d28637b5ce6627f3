/**
 * The change feed's events of a direct load (row-output.ts), written by the importer instead of
 * the table's capture trigger.
 *
 * The trigger (`roster_events_capture_insert`, migration ChunkRosterEvents) numbers the rows of a
 * statement in their order, cuts them into runs of ROSTER_EVENTS_PER_CHUNK and aggregates each run
 * per type, `created` before `deleted`. Over a first import's COPY of millions of rows, that
 * window, sort and aggregation cost PostgreSQL about 1 µs per row (about 3 s of a 48 s first
 * import at full size), while the importer already holds each row's sourcedId and status as it
 * sends it. So for a direct load the importer turns the trigger's capture off for its COPY and
 * writes the same rows itself afterwards, with one COPY into `roster_events`: the same chunks, in
 * the same order, numbered by the same sequence, in the same transaction.
 *
 * It takes over only where the trigger would have captured: the table's insert trigger exists and
 * is enabled, and the session has not turned capture off.
 */
import type { ClientBase } from 'pg';
import { ROSTER_EVENTS_PER_CHUNK } from '@edu/persistence/pg';
import { copyValue, openCopy, textArrayLiteral } from './copy-in';

/** The collection the table's enabled insert trigger captures into (its argument), while capture is on. */
const CAPTURING_TRIGGER_SQL = `SELECT split_part(encode(t.tgargs, 'escape'), '\\000', 1) AS object
  FROM pg_trigger t
 WHERE t.tgrelid = $1::regclass AND t.tgname = 'roster_events_insert' AND t.tgenabled IN ('O', 'A')
   AND t.tgfoid = 'roster_events_capture_insert'::regproc
   AND current_setting('edu.roster_events', true) IS DISTINCT FROM 'off'`;

const COPY_EVENTS_SQL = 'COPY roster_events (tenant_id, type, object, sourced_ids) FROM STDIN';

/** Event lines sent per write to the COPY (about 20 KB each at 1,000 ids). */
const LINES_PER_WRITE = 100;

export class DirectLoadEvents {
  private readonly lines: string[] = [];
  private created: string[] = [];
  private deleted: string[] = [];
  private inChunk = 0;

  private constructor(
    private readonly client: ClientBase,
    private readonly linePrefix: string,
    private readonly object: string,
  ) {}

  /**
   * When the table's trigger would capture a load into it: turns that capture off for this
   * transaction until `write`, and returns what collects the load's events instead.
   */
  static async takeOver(client: ClientBase, table: string, tenantId: string): Promise<DirectLoadEvents | undefined> {
    const { rows } = await client.query<{ object: string }>(CAPTURING_TRIGGER_SQL, [table]);
    if (!rows[0]) return undefined;
    await client.query("SET LOCAL edu.roster_events = 'off'");
    return new DirectLoadEvents(client, `${copyValue(tenantId)}\t`, rows[0].object);
  }

  /** A row sent to the load's COPY, in the order it was sent. */
  add(sourcedId: string, status: unknown): void {
    (status === 'tobedeleted' ? this.deleted : this.created).push(sourcedId);
    if (++this.inChunk === ROSTER_EVENTS_PER_CHUNK) this.endChunk();
  }

  /** After the load's COPY ended: writes its events and turns the trigger's capture back on. */
  async write(): Promise<void> {
    this.endChunk();
    await this.client.query("SET LOCAL edu.roster_events = 'on'");
    if (this.lines.length === 0) return;
    const copy = openCopy(this.client, COPY_EVENTS_SQL);
    try {
      for (let i = 0; i < this.lines.length; i += LINES_PER_WRITE)
        await copy.write(Buffer.from(this.lines.slice(i, i + LINES_PER_WRITE).join(''), 'utf8'));
    } catch (err) {
      await copy.abort();
      throw err;
    }
    await copy.end();
  }

  /** A chunk's rows: its created objects, then its deleted ones (the trigger's order by type). */
  private endChunk(): void {
    if (this.created.length) this.lines.push(this.line('created', this.created));
    if (this.deleted.length) this.lines.push(this.line('deleted', this.deleted));
    this.created = [];
    this.deleted = [];
    this.inChunk = 0;
  }

  private line(type: string, ids: readonly string[]): string {
    return `${this.linePrefix}${type}\t${this.object}\t${copyValue(textArrayLiteral(ids))}\n`;
  }
}
