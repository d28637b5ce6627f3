import { createReadStream, createWriteStream, promises as fs, type WriteStream } from 'node:fs';
import { once } from 'node:events';
import { parse } from 'csv-parse';

/** One CSV field: quoted when it holds a comma, quote or line break. */
export function csvField(v: string): string {
  return /[",\r\n]/.test(v) ? `"${v.replace(/"/g, '""')}"` : v;
}

async function write(out: WriteStream, text: string): Promise<void> {
  if (!out.write(text)) await once(out, 'drain');
}

async function close(out: WriteStream): Promise<void> {
  out.end();
  await once(out, 'finish');
}

/**
 * Writes one CSV file of a package as records arrive. Rows go to a body file; the header is only
 * known at the end when records carry `metadata` (each key a `metadata.<key>` column), so the
 * file is assembled then: header + body, or (with metadata) the body re-read with its rows'
 * metadata cells appended.
 */
export class CsvFileWriter {
  private readonly body: WriteStream;
  private readonly metadata = new Map<number, Record<string, string>>();
  private readonly keys = new Set<string>();
  private rows = 0;

  constructor(
    private readonly path: string,
    private readonly header: readonly string[],
  ) {
    this.body = createWriteStream(`${path}.body`);
  }

  get count(): number {
    return this.rows;
  }

  async row(cells: readonly string[], metadata?: Record<string, string>): Promise<void> {
    if (metadata) {
      this.metadata.set(this.rows, metadata);
      for (const k of Object.keys(metadata)) this.keys.add(k);
    }
    this.rows++;
    await write(this.body, `${cells.map(csvField).join(',')}\n`);
  }

  async finish(): Promise<void> {
    await close(this.body);
    const keys = [...this.keys].sort();
    const out = createWriteStream(this.path);
    await write(out, `${[...this.header, ...keys.map((k) => `metadata.${k}`)].map(csvField).join(',')}\n`);
    if (keys.length === 0) {
      for await (const chunk of createReadStream(`${this.path}.body`)) await write(out, chunk as string);
    } else {
      let index = 0;
      for await (const cells of createReadStream(`${this.path}.body`).pipe(parse({ relax_column_count: true }))) {
        const m = this.metadata.get(index++);
        const extra = keys.map((k) => m?.[k] ?? '');
        await write(out, `${[...(cells as string[]), ...extra].map(csvField).join(',')}\n`);
      }
    }
    await close(out);
    await fs.rm(`${this.path}.body`, { force: true });
  }

  /** Drops the partial files (a failed pull). */
  async abandon(): Promise<void> {
    this.body.on('error', () => undefined); // a write still pending fails harmlessly
    this.body.destroy();
    await fs.rm(`${this.path}.body`, { force: true });
  }
}
