/*
 * WCAG 2.x contrast (https://www.w3.org/TR/WCAG21/#dfn-contrast-ratio) for the brand colours:
 * pure functions, so the rule is unit-tested apart from the pages.
 */

/** WCAG AA for body text. */
export const AA_TEXT = 4.5;
/** WCAG AA for focus rings and other non-text parts (1.4.11). */
export const AA_NON_TEXT = 3;

const HEX = /^#([0-9a-f]{6})$/i;

/** `#RRGGBB` as lower-case hex, or undefined for anything else (never passed through). */
export function parseHexColor(value: unknown): string | undefined {
  return typeof value === 'string' && HEX.test(value) ? value.toLowerCase() : undefined;
}

function channels(hex: string): [number, number, number] {
  const n = Number.parseInt(hex.slice(1), 16);
  return [(n >> 16) & 0xff, (n >> 8) & 0xff, n & 0xff];
}

/** Relative luminance of an sRGB colour (0 black .. 1 white). */
export function relativeLuminance(hex: string): number {
  const [r, g, b] = channels(hex).map((c) => {
    const s = c / 255;
    return s <= 0.04045 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
  });
  return 0.2126 * r + 0.7152 * g + 0.0722 * b;
}

/** Contrast ratio of two colours, 1 .. 21 (order does not matter). */
export function contrastRatio(a: string, b: string): number {
  const [hi, lo] = [relativeLuminance(a), relativeLuminance(b)].sort((x, y) => y - x);
  return (hi + 0.05) / (lo + 0.05);
}

/**
 * The first of `preferred` that reaches `minimum` against `background`; when none does (a
 * brand's pair fails), black or white, whichever reads better (one of them always reaches 4.5:1).
 */
export function readableOn(background: string, preferred: string[], minimum = AA_TEXT): string {
  const ok = preferred.find((c) => contrastRatio(c, background) >= minimum);
  if (ok) return ok;
  return contrastRatio('#000000', background) >= contrastRatio('#ffffff', background) ? '#000000' : '#ffffff';
}
