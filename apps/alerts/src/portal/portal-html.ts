/** Escapes text for HTML content and attribute values (every dynamic value goes through it). */
export function esc(value: unknown): string {
  return String(value ?? '')
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&#39;');
}

/** Where the portal lives, and its stylesheet (the only resource its pages load). */
export const PORTAL_PATH = '/v2/alerts/portal';
export const PORTAL_CSS_PATH = `${PORTAL_PATH}/portal.css`;

/**
 * No script at all, styles from this origin only, forms posting only here, never framed: the
 * page shows data of one app and acts for it, so nothing else may run in or around it.
 */
export const PORTAL_CSP =
  "default-src 'none'; style-src 'self'; img-src 'self'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'";

/** A whole page, neutral in brand: the platform's name only. */
export function layout(title: string, body: string): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="no-referrer">
<title>${esc(title)}</title>
<link rel="stylesheet" href="${PORTAL_CSS_PATH}">
</head>
<body>
<header><span class="mark">Webhook deliveries</span></header>
<main>
${body}
</main>
</body>
</html>`;
}

/** A refusal: what happened and what to do, and nothing of anyone's data. */
export function refusalPage(title: string, text: string): string {
  return layout(title, `<section class="refusal"><h1>${esc(title)}</h1><p>${esc(text)}</p></section>`);
}
