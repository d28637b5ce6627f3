import { decodeBase64, fontProblem, IMAGE_MAX_BYTES, imageProblem } from '@edu/content-checks';
import { FONT_FORMATS } from './css-values';

/** One asset as it goes over the wire. */
export interface Asset {
  contentType: string;
  body: Buffer;
}

const PNG_DATA_URI = /^data:image\/png;base64,/i;

/**
 * A stored logo or background image (an SVG document or a base64 PNG) as bytes with their exact
 * type; undefined when it is missing or fails the rules it was written under (checked again on
 * the way out, so a row written before a rule tightened is not served).
 */
export function imageAsset(value: unknown): Asset | undefined {
  if (typeof value !== 'string' || imageProblem(value, IMAGE_MAX_BYTES) !== undefined) return undefined;
  if (value.trimStart().startsWith('<')) return { contentType: 'image/svg+xml', body: Buffer.from(value, 'utf8') };
  const bytes = decodeBase64(value.replace(PNG_DATA_URI, ''));
  return bytes ? { contentType: 'image/png', body: bytes } : undefined;
}

/** An uploaded typeface (`source: file`) as its font file; undefined for anything else. */
export function fontAsset(entry: unknown): Asset | undefined {
  if (typeof entry !== 'object' || entry === null) return undefined;
  const { source, file_type: fileType, file } = entry as Record<string, unknown>;
  const format =
    typeof fileType === 'string' && Object.prototype.hasOwnProperty.call(FONT_FORMATS, fileType)
      ? FONT_FORMATS[fileType]
      : undefined;
  if (source !== 'file' || !format || typeof file !== 'string' || fontProblem(file, fileType) !== undefined)
    return undefined;
  const bytes = decodeBase64(file);
  return bytes ? { contentType: format.contentType, body: bytes } : undefined;
}

/**
 * Cache lifetimes of the portal's assets. A URL the pages link to carries `?v=` (the brand's
 * `updated_at`, the stylesheet's hash), which changes with the content: such a URL is cached for a
 * year, so a school's morning of sign-ins fetches each asset once per browser. Without `v` a while only.
 */
export const VERSIONED_CACHE = 'public, max-age=31536000, immutable';
export const UNVERSIONED_CACHE = 'public, max-age=300';
export const cacheControl = (query: Record<string, unknown>): string =>
  typeof query.v === 'string' && query.v !== '' ? VERSIONED_CACHE : UNVERSIONED_CACHE;

/** Headers of every brand asset: its exact type, never sniffed, this origin only, cached (long when versioned). */
export function assetHeaders(contentType: string, cache: string = UNVERSIONED_CACHE): Record<string, string> {
  return {
    'Content-Type': contentType,
    'X-Content-Type-Options': 'nosniff',
    'Cross-Origin-Resource-Policy': 'same-origin',
    'Cache-Control': cache,
    // An SVG opened on its own is a document: no script, nothing loaded, sandboxed.
    'Content-Security-Policy': "default-src 'none'; style-src 'unsafe-inline'; img-src data:; sandbox",
  };
}
