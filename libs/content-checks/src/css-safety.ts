import { ident, string as cssString, tokenize, tokenTypes, url as cssUrl } from 'css-tree';
import { referenceProblem } from './references';

/*
 * CSS inside an SVG image (`<style>` blocks, `style` attributes, presentation attributes) read with
 * css-tree's tokenizer (CSS Syntax Level 3), so escapes (`@\69mport`, `u\72l(`), comments and
 * strings are seen exactly as a browser sees them. Plain rules and declarations are fine; anything
 * that can fetch or run something is refused: `url()` other than `url(#id)`, `@import` and other
 * at-rules outside a small list, and functions outside a list of value, transform, filter, shape
 * and selector functions (no `image-set()`, `image()`, `src()`, `element()`, `expression()`, ...).
 */

const ALLOWED_AT_RULES = new Set([
  'charset',
  'media',
  'supports',
  'container',
  'layer',
  'keyframes',
  '-webkit-keyframes',
  'font-face',
]);

const ALLOWED_FUNCTIONS = new Set(
  `
  rgb rgba hsl hsla hwb lab lch oklab oklch color color-mix light-dark device-cmyk
  calc min max clamp var env abs sign round mod rem sin cos tan asin acos atan atan2 pow sqrt hypot log exp
  matrix matrix3d translate translatex translatey translatez translate3d scale scalex scaley scalez scale3d
  rotate rotatex rotatey rotatez rotate3d skew skewx skewy perspective
  linear-gradient radial-gradient conic-gradient repeating-linear-gradient repeating-radial-gradient
  repeating-conic-gradient cubic-bezier steps linear local format tech
  blur brightness contrast drop-shadow grayscale hue-rotate invert opacity saturate sepia
  inset circle ellipse polygon path rect xywh
  not is where has nth-child nth-last-child nth-of-type nth-last-of-type lang dir
  `
    .trim()
    .split(/\s+/),
);

const T = tokenTypes;

/** The source of a function or at-keyword token without its `(` / `@`, escapes decoded, lower-cased. */
function nameOf(raw: string): string {
  return ident.decode(raw).toLowerCase();
}

/**
 * Why `css` (a style sheet, a declaration list or a single value) is unsafe, or undefined.
 * A `<` is refused outright: CSS never needs one, and it is how markup would sneak in.
 */
export function cssProblem(css: string): string | undefined {
  if (css.includes('<')) return 'CSS must not contain "<"';
  const tokens: { type: number; text: string }[] = [];
  tokenize(css, (type, start, end) => {
    if (type !== T.WhiteSpace && type !== T.Comment) tokens.push({ type, text: css.slice(start, end) });
  });
  for (let i = 0; i < tokens.length; i++) {
    const { type, text } = tokens[i];
    if (type === T.AtKeyword) {
      const name = nameOf(text.slice(1));
      if (!ALLOWED_AT_RULES.has(name)) return `CSS at-rule @${name} is not allowed`;
    } else if (type === T.Url) {
      const problem = referenceProblem(cssUrl.decode(text));
      if (problem) return `CSS url() ${problem}`;
    } else if (type === T.Function) {
      const name = nameOf(text.slice(0, -1));
      if (name === 'url') {
        // url("...") is a function token followed by a string token.
        const next = tokens[i + 1];
        if (next?.type !== T.String) return 'CSS url() must point inside the document (#id)';
        const problem = referenceProblem(cssString.decode(next.text));
        if (problem) return `CSS url() ${problem}`;
      } else if (!ALLOWED_FUNCTIONS.has(name)) {
        return `CSS function ${name}() is not allowed`;
      }
    } else if (type === T.BadUrl || type === T.BadString) {
      return 'CSS is malformed (an unterminated url() or string)';
    }
  }
  return undefined;
}
