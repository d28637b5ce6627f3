import { ZipFile } from 'yazl';

/** A OneRoster v1.1 CSV package as a zip: per file name, its rows (the header first), CRLF line ends. */
export async function rosterZip(files: Record<string, string[][]>): Promise<Buffer> {
  const zip = new ZipFile();
  for (const [name, rows] of Object.entries(files))
    zip.addBuffer(Buffer.from(`${rows.map((r) => r.join(',')).join('\r\n')}\r\n`), name);
  zip.end();
  const chunks: Buffer[] = [];
  for await (const chunk of zip.outputStream) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}
