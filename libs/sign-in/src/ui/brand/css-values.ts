/*
 * Brand values become CSS only through these functions: strings are escaped code point by code
 * point, keywords come from fixed tables, so no value can close a rule or open a new one.
 */

/** A CSS string literal: everything but letters, digits, space and `-_.,/?=%:` is a hex escape. */
export function cssString(value: string): string {
  let out = '';
  for (const ch of value) {
    const cp = ch.codePointAt(0) as number;
    // Control characters (and NUL, which CSS turns into U+FFFD) are dropped.
    if (cp < 0x20 || cp === 0x7f) continue;
    out += /[A-Za-z0-9 _.,/?=%:-]/.test(ch) ? ch : `\\${cp.toString(16)} `;
  }
  return `"${out}"`;
}

/** `url("...")` for one of our own asset paths (a path on this origin, nothing else). */
export function cssUrl(path: string): string {
  if (!path.startsWith('/signin/')) throw new Error(`not a sign-in asset path: ${path}`);
  return `url(${cssString(path)})`;
}

/** A keyword from a fixed table, else the table's default. */
export function keyword<T extends string>(table: Record<string, T>, value: unknown, fallback: T): T {
  return typeof value === 'string' && Object.prototype.hasOwnProperty.call(table, value) ? table[value] : fallback;
}

/** `layout`: where the sign-in card sits across the page. */
export const LAYOUT_JUSTIFY: Record<string, string> = { center: 'center', left: 'flex-start', right: 'flex-end' };
export const BACKGROUND_POSITION: Record<string, string> = {
  center: 'center',
  top: 'top',
  bottom: 'bottom',
  left: 'left',
  right: 'right',
};
export const BACKGROUND_REPEAT: Record<string, string> = {
  'no-repeat': 'no-repeat',
  repeat: 'repeat',
  'repeat-x': 'repeat-x',
  'repeat-y': 'repeat-y',
};
export const BACKGROUND_SIZE: Record<string, string> = { cover: 'cover', contain: 'contain', auto: 'auto' };

/** Font file types and their `format()` hint and HTTP content type. */
export const FONT_FORMATS: Record<string, { format: string; contentType: string }> = {
  woff: { format: 'woff', contentType: 'font/woff' },
  woff2: { format: 'woff2', contentType: 'font/woff2' },
  ttf: { format: 'truetype', contentType: 'font/ttf' },
  otf: { format: 'opentype', contentType: 'font/otf' },
};

const WEIGHTS: Record<string, string> = {
  thin: '100',
  extralight: '200',
  light: '300',
  normal: '400',
  medium: '500',
  semibold: '600',
  bold: '700',
  extrabold: '800',
  black: '900',
};
const TRACKING: Record<string, string> = {
  tighter: '-0.05em',
  tight: '-0.025em',
  normal: '0',
  wide: '0.025em',
  wider: '0.05em',
  widest: '0.1em',
};

/**
 * The style class names of `font_styles` (Tailwind's names, as the spec's `font-semibold`) we
 * understand, as declarations; any other name is ignored.
 */
export const STYLE_CLASSES: Record<string, string> = {
  ...Object.fromEntries(Object.entries(WEIGHTS).map(([k, v]) => [`font-${k}`, `font-weight: ${v}`])),
  ...Object.fromEntries(Object.entries(TRACKING).map(([k, v]) => [`tracking-${k}`, `letter-spacing: ${v}`])),
  italic: 'font-style: italic',
  'not-italic': 'font-style: normal',
  uppercase: 'text-transform: uppercase',
  lowercase: 'text-transform: lowercase',
  capitalize: 'text-transform: capitalize',
  'normal-case': 'text-transform: none',
};
