/** The sign-in portal's forms as a test submits them (HTML read with patterns: the pages are the portal's own). */

const unescape = (s: string) =>
  s.replace(/&amp;/g, '&').replace(/&#(\d+);/g, (_m, n: string) => String.fromCharCode(Number(n)));

/** The hidden inputs of the first form posting to `action` (a pattern of its path). */
function form(body: string, action: RegExp): { action: string; fields: URLSearchParams } | undefined {
  for (const m of body.matchAll(/<form method="post" action="([^"]+)"[^>]*>([\s\S]*?)<\/form>/g)) {
    if (!action.test(m[1])) continue;
    const fields = new URLSearchParams();
    for (const i of m[2].matchAll(/<input type="hidden" name="([^"]+)" value="([^"]*)">/g))
      fields.set(i[1], unescape(i[2]));
    return { action: unescape(m[1]), fields };
  }
  return undefined;
}

/** The providers page's form with `provider`'s button pressed, or undefined when there is none. */
export function providerChoice(body: string, provider: string): { action: string; body: string } | undefined {
  const f = form(body, /\/signin\/interaction\/[^/]+\/start$/);
  if (!f || !body.includes(`name="provider" value="${provider}"`)) return undefined;
  f.fields.set('provider', provider);
  return { action: f.action, body: f.fields.toString() };
}

/** The "go back to the app" form of a portal page. */
export function abortForm(body: string): { action: string; body: string } | undefined {
  const f = form(body, /\/signin\/interaction\/[^/]+\/abort$/);
  return f ? { action: f.action, body: f.fields.toString() } : undefined;
}

export const FORM_HEADERS = { 'content-type': 'application/x-www-form-urlencoded' };

/** The school search of a portal page submitted with `q` (a GET form carrying the CSRF token), as a path. */
export function schoolSearch(body: string, q: string): string | undefined {
  const m =
    /<form method="get" action="([^"]+)" role="search">\s*<input type="hidden" name="csrf" value="([^"]*)">/.exec(body);
  return m ? `${unescape(m[1])}?${new URLSearchParams({ csrf: unescape(m[2]), q })}` : undefined;
}

/** Where a portal answer sends the browser next: its redirect, or the URL of a page that moves on by itself (a refresh). */
export function nextStop(res: { location?: string; body: string; url: string }): string | undefined {
  if (res.location) return res.location;
  const m = /<meta http-equiv="refresh" content="0; url=([^"]+)">/.exec(res.body);
  return m ? new URL(unescape(m[1]), res.url).href : undefined;
}
