/*
 * References inside an SVG image. A browser's URL parser ignores ASCII tabs and newlines anywhere
 * and control characters and spaces around the URL, so `java&#x09;script:` is `javascript:`. The
 * values seen here are already entity-decoded by the XML parser; every ASCII control character and
 * space is dropped before deciding (a superset of what browsers drop), and everything else stays,
 * so a reference that only looks internal (`&#xA0;#id`) is refused.
 */

const IGNORED_BY_URL_PARSERS = /[\u0000-\u0020\u007f]/g;
const RASTER_DATA_URI = /^data:image\/(?:png|jpeg|gif|webp)(?:;base64)?,/i;
const SVG_DATA_URI = /^data:image\/svg\+xml/i;
const SCRIPT_SCHEME = /(?:javascript|vbscript|livescript):|(?<![a-z0-9+.-])data:/i;
const ANY_SCHEME = /[a-z][a-z0-9+.-]*:/i;

export function normalizeUrl(value: string): string {
  return value.replace(IGNORED_BY_URL_PARSERS, '');
}

/**
 * Why `value` is not an acceptable reference, or undefined. Only same-document `#fragment`s are
 * accepted, plus (with `rasterData`) embedded PNG, JPEG, GIF or WebP images. An embedded SVG
 * (`data:image/svg+xml`) is refused: it is a second document with its own scripts and references.
 */
export function referenceProblem(value: string, rasterData = false): string | undefined {
  const url = normalizeUrl(value);
  if (url.startsWith('#')) return undefined;
  if (rasterData && RASTER_DATA_URI.test(url)) return undefined;
  if (SVG_DATA_URI.test(url)) return 'must not embed another SVG document (data:image/svg+xml)';
  return rasterData
    ? 'must point inside the document (#id) or be a data:image/png, jpeg, gif or webp URI'
    : 'must point inside the document (#id)';
}

/** True when a value carries a script-capable scheme anywhere (javascript:, vbscript:, data:, ...). */
export function hasScriptScheme(value: string): boolean {
  return SCRIPT_SCHEME.test(normalizeUrl(value));
}

/** True when a value carries any URL scheme (`name:`) at all. */
export function hasAnyScheme(value: string): boolean {
  return ANY_SCHEME.test(normalizeUrl(value));
}
