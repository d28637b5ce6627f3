/** The sign-in portal's forms as a test submits them (HTML parsed with patterns: the pages are ours). */

const unescape = (s: string) => s.replace(/&amp;/g, '&').replace(/&#(\d+);/g, (_m, n: string) => String.fromCharCode(Number(n)));

/** The hidden inputs of the first form posting to `action` (a pattern of its path). */
function form(body: string, action: RegExp): { action: string; fields: URLSearchParams } | undefined {
  for (const m of body.matchAll(/<form method="post" action="([^"]+)"[^>]*>([\s\S]*?)<\/form>/g)) {
    if (!action.test(m[1])) continue;
    const fields = new URLSearchParams();
    for (const i of m[2].matchAll(/<input type="hidden" name="([^"]+)" value="([^"]*)">/g)) fields.set(i[1], unescape(i[2]));
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
