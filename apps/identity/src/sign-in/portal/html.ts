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
    const part = Array.isArray(v) ? v.map((x) => (x instanceof Raw ? x.html : esc(x))).join('') : v instanceof Raw ? v.html : esc(v);
    out += part + strings[i + 1];
  });
  return new Raw(out);
}

/**
 * The sign-in pages' policy: no script at all, styles, images and fonts from this origin only
 * (logos and backgrounds arrive as `data:` images), forms post only here, never framed.
 */
export const PAGE_CSP = [
  "default-src 'none'",
  "style-src 'self'",
  "img-src 'self' data:",
  "font-src 'self'",
  "form-action 'self'",
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
  /** Extra stylesheet (a vanity domain's brand), same origin. */
  brandCss?: string;
  lang?: string;
}

/** The document around every page: one stylesheet, a main landmark, no script. */
export function page(p: PageShell): string {
  return html`<!DOCTYPE html>
<html lang="${p.lang ?? 'en'}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="no-referrer">
<title>${p.title}</title>
<link rel="stylesheet" href="/signin/assets/portal.css">
${p.brandCss ? raw(`<link rel="stylesheet" href="${esc(p.brandCss)}">`) : ''}
</head>
<body>
<main class="portal" id="main">
${p.body}
</main>
</body>
</html>
`.html;
}
