// HTML for the demo pages: every value escaped, no script, one small stylesheet.
'use strict';

const escapeHtml = (v) =>
  String(v).replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]);

const CSS = `body{font-family:system-ui,sans-serif;max-width:44rem;margin:2rem auto;padding:0 1rem;line-height:1.5;color:#1a1a1a}
.note{background:#fff4ce;border-left:4px solid #b58900;padding:.5rem 1rem}
button,.button{display:inline-block;font-size:1rem;padding:.5rem 1rem;margin:.25rem 0;border:1px solid #0b1f3a;border-radius:4px;background:#0b1f3a;color:#fff;text-decoration:none;cursor:pointer}
ul.people{list-style:none;padding:0}table{border-collapse:collapse}td,th{border:1px solid #ccc;padding:.25rem .5rem;text-align:left;vertical-align:top}
pre{background:#f5f7fa;padding:1rem;overflow:auto}.error{color:#a4000f}`;

/** A whole page; `body` is HTML the caller built with escapeHtml. */
function page(title, body) {
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<title>${escapeHtml(title)}</title><style>${CSS}</style></head>
<body>${body}</body></html>`;
}

/**
 * No script, styles only from the page itself. No form-action: browsers apply it to the redirects
 * after a post too, and the login form's answer redirects to the identity service.
 */
const PAGE_HEADERS = {
  'Content-Type': 'text/html; charset=utf-8',
  'Content-Security-Policy': "default-src 'none'; style-src 'unsafe-inline'; frame-ancestors 'none'",
  'Cache-Control': 'no-store',
  'X-Content-Type-Options': 'nosniff',
};

function send(res, status, html, headers = {}) {
  res.writeHead(status, { ...PAGE_HEADERS, ...headers });
  res.end(html);
}

/** A urlencoded form body, at most `max` bytes (16 kB unless said). */
function readForm(req, max = 16 * 1024) {
  return new Promise((resolve, reject) => {
    let body = '';
    req.on('data', (c) => {
      body += c;
      if (body.length > max) reject(new Error('form too large'));
    });
    req.on('end', () => resolve(new URLSearchParams(body)));
    req.on('error', reject);
  });
}

module.exports = { escapeHtml, page, send, readForm };
