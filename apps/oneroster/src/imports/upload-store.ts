/**
 * Streams a request body to a file, refusing bodies over the size limit (checked against
 * Content-Length first, then while counting). A refused body is drained, not cut off, so the
 * client still receives the answer.
 */
import { createWriteStream, promises as fs } from 'node:fs';
import type { Readable } from 'node:stream';

export class UploadTooLargeError extends Error {}

export async function storeUpload(
  body: Readable,
  file: string,
  maxBytes: number,
  declaredLength?: number,
): Promise<number> {
  if (declaredLength !== undefined && declaredLength > maxBytes) {
    body.resume();
    throw new UploadTooLargeError(`the package is ${declaredLength} bytes; the limit is ${maxBytes}`);
  }
  try {
    return await new Promise<number>((resolve, reject) => {
      const out = createWriteStream(file, { mode: 0o600 });
      let size = 0;
      let failed = false;
      const fail = (err: Error) => {
        if (failed) return;
        failed = true;
        out.destroy();
        body.resume();
        reject(err);
      };
      body.on('data', (chunk: Buffer) => {
        if (failed) return;
        size += chunk.length;
        if (size > maxBytes) return fail(new UploadTooLargeError(`the package exceeds the ${maxBytes}-byte limit`));
        if (!out.write(chunk)) {
          body.pause();
          out.once('drain', () => body.resume());
        }
      });
      body.once('end', () => {
        if (!failed) out.end();
      });
      body.once('error', fail);
      body.once('aborted', () => fail(new Error('the upload was aborted')));
      out.once('error', fail);
      out.once('finish', () => {
        if (!failed) resolve(size);
      });
    });
  } catch (err) {
    await fs.rm(file, { force: true });
    throw err;
  }
}
