import type { IncomingMessage, ServerResponse } from 'node:http';

/*
 * The test upstream's login page (browser tests): a form asking for the e-mail address of the
 * person the test expects, as a school's Google or Microsoft login page would.
 */

const esc = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

function send(res: ServerResponse, status: number, html: string): void {
  res.writeHead(status, {
    'content-type': 'text/html; charset=utf-8',
    'content-security-policy': "default-src 'none'; style-src 'unsafe-inline'",
    'cache-control': 'no-store',
  });
  res.end(html);
}

function page(uid: string, error?: string): string {
  return `<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><title>Upstream provider: sign in</title>
<style>body{font-family:sans-serif;margin:3rem;background:#fafafa}form{max-width:20rem}input,button{display:block;margin:.5rem 0;padding:.5rem;font-size:1rem;width:100%}</style></head>
<body><main><h1>Test school account</h1>${error ? `<p role="alert">${esc(error)}</p>` : ''}
<form method="post" action="/interaction/${esc(uid)}"><label for="login">E-mail address</label>
<input id="login" name="login" type="email" autocomplete="username" required><button type="submit">Sign in</button></form></main></body></html>`;
}

async function formField(req: IncomingMessage, name: string): Promise<string | undefined> {
  let body = '';
  for await (const chunk of req) body += String(chunk);
  return new URLSearchParams(body).get(name) ?? undefined;
}

/**
 * Shows the form (GET) or checks its answer (POST): true when the typed address is the expected
 * person's (the caller then signs them in); otherwise the page was answered here.
 */
export async function loginPage(
  req: IncomingMessage,
  res: ServerResponse,
  uid: string,
  expected: { sub: string; email?: string },
): Promise<boolean> {
  if (req.method !== 'POST') {
    send(res, 200, page(uid));
    return false;
  }
  const login = (await formField(req, 'login'))?.trim().toLowerCase();
  if (login && (login === expected.email?.toLowerCase() || login === expected.sub)) return true;
  send(res, 401, page(uid, 'Unknown account. Try again.'));
  return false;
}
