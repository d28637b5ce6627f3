import type { PageBrand } from './brand/brand-store';
import { PORTAL_CSS_HREF } from './portal.css';

/** HTML-escapes text for element content and quoted attribute values. */
export function esc(value: unknown): string {
  return String(value ?? '').replace(/[&<>"'`]/g, (c) => `&#${c.charCodeAt(0)};`);
}

/** Tagged template: interpolations are escaped unless wrapped in `raw()`. */
export class Raw {
  constructor(readonly html: string) {}
}
export const raw = (html: string): Raw => new Raw(html);

export function html(strings: TemplateStringsArray, ...values: unknown[]): Raw {
  let out = strings[0];
  values.forEach((v, i) => {
    const part = Array.isArray(v)
      ? v.map((x) => (x instanceof Raw ? x.html : esc(x))).join('')
      : v instanceof Raw
        ? v.html
        : esc(v);
    out += part + strings[i + 1];
  });
  return new Raw(out);
}

/**
 * The sign-in pages' policy: no script at all, styles, images and fonts from this origin only
 * (logos, backgrounds and fonts are files of the identity service, never inlined), never framed.
 * No `form-action`: Chromium applies it to the redirects that follow a post too, and the provider
 * buttons, "go back" and logout forms post here to be redirected to the upstream provider or the
 * app (other origins); forms carry CSRF tokens and pages no script or unescaped markup.
 */
export const PAGE_CSP = [
  "default-src 'none'",
  "style-src 'self'",
  "img-src 'self'",
  "font-src 'self'",
  "frame-ancestors 'none'",
  "base-uri 'none'",
].join('; ');

/** Headers of every sign-in page. */
export const PAGE_HEADERS: Record<string, string> = {
  'Content-Type': 'text/html; charset=utf-8',
  'Content-Security-Policy': PAGE_CSP,
  'Cache-Control': 'no-store',
  'X-Content-Type-Options': 'nosniff',
  'Referrer-Policy': 'no-referrer',
  'X-Frame-Options': 'DENY',
};

export interface PageShell {
  title: string;
  body: Raw;
  /** A vanity domain's brand: its stylesheet and logos, all files of this origin. */
  brand?: PageBrand;
  lang?: string;
}

/** The brand's light and dark logos, switched by the reader's colour scheme (alt is empty: the heading names the portal). */
function logo(b: PageBrand): Raw | string {
  if (!b.hasLogo.light && !b.hasLogo.dark) return '';
  const light = b.paths.logo(b.hasLogo.light ? 'light' : 'dark');
  const dark = b.hasLogo.dark
    ? html`<source srcset="${b.paths.logo('dark')}" media="(prefers-color-scheme: dark)">`
    : '';
  return html`<picture class="logo">${dark}<img src="${light}" alt=""></picture>`;
}

/** The document around every page: stylesheets, a main landmark, no script. */
export function page(p: PageShell): string {
  return html`<!DOCTYPE html>
<html lang="${p.lang ?? 'en'}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="no-referrer">
<title>${p.title}</title>
<link rel="stylesheet" href="${PORTAL_CSS_HREF}">
${p.brand ? html`<link rel="stylesheet" href="${p.brand.paths.css}">` : ''}
</head>
<body>
<main class="portal" id="main">
${p.brand ? logo(p.brand) : ''}
${p.body}
</main>
</body>
</html>
`.html;
}
