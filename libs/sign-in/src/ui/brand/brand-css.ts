import type { BrandConfiguration, TypefaceEntry } from '@edu/persistence';
import { BRAND_FAMILIES, type BrandFamily, type BrandPaths, type Scheme } from './brand-paths';
import { AA_NON_TEXT, parseHexColor, readableOn } from './contrast';
import {
  BACKGROUND_POSITION,
  BACKGROUND_REPEAT,
  BACKGROUND_SIZE,
  cssString,
  cssUrl,
  FONT_FORMATS,
  keyword,
  LAYOUT_JUSTIFY,
  STYLE_CLASSES,
} from './css-values';

/** The portal's own surfaces and text (portal.css): brand colours are checked against these. */
export const SURFACE: Record<Scheme, string> = { light: '#ffffff', dark: '#1d2329' };
export const TEXT: Record<Scheme, string> = { light: '#1d2329', dark: '#e8ecef' };
const DEFAULT_PRIMARY = '#1a4f8b';
const GENERIC: Record<BrandFamily, string[]> = {
  sans: ['system-ui', '-apple-system', '"Segoe UI"', 'Roboto', 'sans-serif'],
  serif: ['Georgia', '"Times New Roman"', 'serif'],
};

/** The colours a brand's pages use, each pair already checked for WCAG AA. */
export interface Palette {
  primary: string;
  onPrimary: string;
  secondary: string;
  onSecondary: string;
  /** Links and headings on the card, per scheme: the primary colour when it reads, else the text colour. */
  link: Record<Scheme, string>;
  /** Focus rings (3:1 against the card). */
  focus: Record<Scheme, string>;
}

export function brandPalette(c: Partial<BrandConfiguration>): Palette {
  const primary = parseHexColor(c.primary_color) ?? DEFAULT_PRIMARY;
  const secondary = parseHexColor(c.secondary_color) ?? primary;
  const per = (min?: number) => ({
    light: readableOn(SURFACE.light, [primary, TEXT.light], min),
    dark: readableOn(SURFACE.dark, [primary, TEXT.dark], min),
  });
  return {
    primary,
    onPrimary: readableOn(primary, ['#ffffff', TEXT.light]),
    secondary,
    onSecondary: readableOn(secondary, ['#ffffff', TEXT.light]),
    link: per(),
    focus: per(AA_NON_TEXT),
  };
}

function colourRules(p: Palette): string {
  const scheme = (s: Scheme) => `--link: ${p.link[s]}; --heading: ${p.link[s]}; --focus: ${p.focus[s]};`;
  return `:root { --primary: ${p.primary}; --on-primary: ${p.onPrimary}; --secondary: ${p.secondary}; --on-secondary: ${p.onSecondary}; --accent: ${p.secondary}; ${scheme('light')} }
@media (prefers-color-scheme: dark) { :root { ${scheme('dark')} } }`;
}

/** A family's stack: uploaded files as @font-face under generated names, library fonts by name. */
function family(key: BrandFamily, entries: unknown, paths: BrandPaths): { faces: string[]; stack: string } {
  const faces: string[] = [];
  const names: string[] = [];
  (Array.isArray(entries) ? (entries as TypefaceEntry[]) : []).slice(0, 10).forEach((t, i) => {
    if (t?.source === 'file') {
      const f = FONT_FORMATS[String(t.file_type)];
      if (!f || typeof t.file !== 'string') return;
      const name = cssString(`brand-${key}-${i}`);
      faces.push(
        `@font-face { font-family: ${name}; src: ${cssUrl(paths.font(key, i))} format(${cssString(f.format)}); font-display: swap; }`,
      );
      names.push(name);
    } else if (typeof t?.name === 'string' && t.name.trim()) {
      // A font library's typeface: used when the device has it (nothing is fetched from elsewhere).
      names.push(cssString(t.name.trim().slice(0, 100)));
    }
  });
  return { faces, stack: [...names, ...GENERIC[key]].join(', ') };
}

/** `font_styles.header` / `.prose`: the family named in the list plus the style classes we know. */
function fontStyle(list: unknown): string {
  const items = Array.isArray(list) ? list.filter((s): s is string => typeof s === 'string') : [];
  const key = items.find((s): s is BrandFamily => (BRAND_FAMILIES as readonly string[]).includes(s)) ?? 'sans';
  const decls = items.map((s) => STYLE_CLASSES[s]).filter(Boolean);
  return [`font-family: var(--font-${key})`, ...decls].join('; ');
}

function fontRules(c: Partial<BrandConfiguration>, paths: BrandPaths): string {
  const fams = BRAND_FAMILIES.map((k) => ({ k, ...family(k, c.typefaces?.[k], paths) }));
  return [
    ...fams.flatMap((f) => f.faces),
    `:root { ${fams.map((f) => `--font-${f.k}: ${f.stack};`).join(' ')} }`,
    `body, input, button { ${fontStyle(c.font_styles?.prose)}; }`,
    `h1, h2 { ${fontStyle(c.font_styles?.header)}; }`,
  ].join('\n');
}

interface Layer {
  image: string;
  position: string;
  repeat: string;
  size: string;
}

function layers(list: Layer[]): string {
  if (!list.length) return 'background-image: none;';
  const join = (k: keyof Layer) => list.map((l) => l[k]).join(', ');
  return `background-image: ${join('image')}; background-position: ${join('position')}; background-repeat: ${join('repeat')}; background-size: ${join('size')};`;
}

/**
 * Light pages: the image (if any) over the gradient over the light colour. Dark pages: the image
 * over the dark colour (one gradient is given, for light pages; it would glare on dark ones).
 */
function backgroundRules(c: Partial<BrandConfiguration>, paths: BrandPaths): string {
  const b = c.background;
  const light = parseHexColor(b?.color?.light) ?? '#f3f5f7';
  const dark = parseHexColor(b?.color?.dark) ?? '#101418';
  const stops = [b?.gradient?.from, b?.gradient?.via, b?.gradient?.to]
    .map(parseHexColor)
    .filter((s): s is string => Boolean(s));
  const image: Layer[] = b?.image
    ? [
        {
          image: cssUrl(paths.background),
          position: keyword(BACKGROUND_POSITION, b.position, 'center'),
          repeat: keyword(BACKGROUND_REPEAT, b.repeat, 'no-repeat'),
          size: keyword(BACKGROUND_SIZE, b.size, 'cover'),
        },
      ]
    : [];
  const gradient: Layer[] =
    stops.length >= 2
      ? [
          {
            image: `linear-gradient(to bottom right, ${stops.join(', ')})`,
            position: 'center',
            repeat: 'no-repeat',
            size: 'cover',
          },
        ]
      : [];
  return `body { background-color: ${light}; ${layers([...image, ...gradient])} background-attachment: fixed; }
@media (prefers-color-scheme: dark) { body { background-color: ${dark}; ${layers(image)} } }`;
}

/**
 * The stylesheet of one vanity domain's portal. Every value is parsed (colours, keywords) or
 * escaped (names), and every url() is one of our own asset paths.
 */
export function brandCss(c: Partial<BrandConfiguration>, paths: BrandPaths): string {
  const justify = keyword(LAYOUT_JUSTIFY, c.layout, 'center');
  return [
    `/* ${paths.domain.replace(/[^a-z0-9.-]/gi, '')} */`,
    colourRules(brandPalette(c)),
    fontRules(c, paths),
    backgroundRules(c, paths),
    `body { justify-content: ${justify}; }`,
    '',
  ].join('\n');
}
