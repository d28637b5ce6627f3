import { checkSvg } from './svg-safety';

/** Size caps for images and fonts carried inside JSON bodies (decoded bytes). */
export const IMAGE_MAX_BYTES = 256 * 1024;
export const BUTTON_GRAPHIC_MAX_BYTES = 64 * 1024;
export const FONT_MAX_BYTES = 512 * 1024;

const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
const BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;
const PNG_DATA_URI = /^data:image\/png;base64,/i;

/** Decodes strict base64 (no whitespace, proper padding); undefined when it is not base64. */
export function decodeBase64(value: string): Buffer | undefined {
  if (value.length === 0 || !BASE64.test(value)) return undefined;
  return Buffer.from(value, 'base64');
}

const kib = (n: number) => `${Math.round(n / 1024)} KiB`;

/**
 * Why `value` is not an acceptable SVG image, or undefined when it is. These images end up on
 * sign-in pages, so anything outside the allow-list of svg-safety.ts is refused (never cleaned).
 */
export function svgProblem(value: string, maxBytes: number): string | undefined {
  if (Buffer.byteLength(value, 'utf8') > maxBytes) return `must be at most ${kib(maxBytes)}`;
  const svg = checkSvg(value);
  if (svg.ok) return undefined;
  return svg.malformed
    ? `is not a well-formed SVG document: ${svg.problem}`
    : `is not an allowed SVG image: ${svg.problem}`;
}

/** Why `value` is not a base64 PNG (optionally as a data: URI), or undefined when it is. */
export function pngProblem(value: string, maxBytes: number): string | undefined {
  const bytes = decodeBase64(value.replace(PNG_DATA_URI, ''));
  if (!bytes || bytes.length < PNG_SIGNATURE.length || !bytes.subarray(0, 8).equals(PNG_SIGNATURE))
    return 'is not a base64-encoded PNG image';
  if (bytes.length > maxBytes) return `must be at most ${kib(maxBytes)}`;
  return undefined;
}

/** An image field that takes an SVG document or a base64 PNG. */
export function imageProblem(value: unknown, maxBytes: number, svgOnly = false): string | undefined {
  if (typeof value !== 'string' || value.length === 0)
    return svgOnly ? 'must be an SVG document' : 'must be an SVG document or a base64-encoded PNG image';
  const trimmed = value.trimStart();
  if (trimmed.startsWith('<')) return svgProblem(value, maxBytes);
  if (svgOnly) return 'must be an SVG document';
  return pngProblem(value, maxBytes);
}

const FONT_MAGIC: Record<string, (b: Buffer) => boolean> = {
  woff: (b) => b.subarray(0, 4).toString('latin1') === 'wOFF',
  woff2: (b) => b.subarray(0, 4).toString('latin1') === 'wOF2',
  ttf: (b) => b.readUInt32BE(0) === 0x00010000 || b.subarray(0, 4).toString('latin1') === 'true',
  otf: (b) => b.subarray(0, 4).toString('latin1') === 'OTTO',
};
export const FONT_FILE_TYPES = Object.keys(FONT_MAGIC);

/** Why `value` is not a base64 font file of `fileType`, or undefined when it is. */
export function fontProblem(value: unknown, fileType: unknown): string | undefined {
  if (typeof value !== 'string') return 'must be a base64-encoded font file';
  const bytes = decodeBase64(value);
  if (!bytes || bytes.length < 4) return 'must be a base64-encoded font file';
  if (bytes.length > FONT_MAX_BYTES) return `must be at most ${kib(FONT_MAX_BYTES)}`;
  const matches = typeof fileType === 'string' ? FONT_MAGIC[fileType] : undefined;
  if (matches && !matches(bytes)) return `is not a ${fileType} file`;
  return undefined;
}
