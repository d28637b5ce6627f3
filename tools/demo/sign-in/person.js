#!/usr/bin/env node
// A person at a browser, for the guides' shell blocks (docs/partners/sign-in.md): follows an
// authorization request through the sign-in portal (the school given by the request's `tenant`
// parameter), presses the provider's button, picks the demo person at the demo provider, and
// prints the URL the browser is finally sent to: the app's redirect URI with `code` and `state`
// (or `error`). For a SAML sign-in (docs/partners/sign-in-saml.md), whose end is a page posting
// the response to the app's reply URL, it prints that form as JSON (action, SAMLResponse,
// RelayState) instead of posting it. Cookies are kept per host name, as a browser does.
//   node tools/demo/sign-in/person.js '<authorization URL>' microsoft wei.ling.tan@lioncity.edu.example REDIRECT_URI
'use strict';
const { demoSignInConfig } = require('./config');
const { browser, unescapeHtml } = require('./cookie-fetch');
const { runStepScript } = require('./script');

function refreshOf(res) {
  const m = /<meta http-equiv="refresh" content="0; ?url=([^"]+)">/i.exec(res.body);
  return m ? new URL(unescapeHtml(m[1]), res.url).href : undefined;
}

/** The hidden fields of the first form whose action matches, with `extra` set. */
function formOf(page, action, extra) {
  for (const m of page.body.matchAll(/<form method="post" action="([^"]+)"[^>]*>([\s\S]*?)<\/form>/g)) {
    if (!action.test(m[1]) || !Object.values(extra).every((v) => m[2].includes(`value="${v}"`))) continue;
    const fields = new URLSearchParams();
    for (const i of m[2].matchAll(/<input type="hidden" name="([^"]+)" value="([^"]*)">/g))
      fields.set(i[1], unescapeHtml(i[2]));
    for (const [k, v] of Object.entries(extra)) fields.set(k, v);
    return { url: new URL(unescapeHtml(m[1]), page.url).href, body: fields.toString() };
  }
  throw new Error(
    `no form for ${JSON.stringify(extra)} on ${page.url} (HTTP ${page.status}): ${page.body
      .replace(/<[^>]+>/g, ' ')
      .replace(/\s+/g, ' ')
      .slice(0, 300)}`,
  );
}

async function signIn(authorizationUrl, provider, email, redirectUri) {
  const person = demoSignInConfig().people.find((p) => p.email === email);
  if (!person) throw new Error(`no demo person ${email} (tools/demo/sign-in/demo-sign-in.json)`);
  const request = browser();
  const done = (url) => url.startsWith(redirectUri);
  // Redirects, and pages that go on at once (<meta http-equiv="refresh">), as a browser does.
  const next = (res) => (res.status >= 300 && res.status < 400 ? res.location : refreshOf(res));
  const follow = async (res) => {
    for (let url = next(res); url && !done(url); url = next(res)) res = await request(url);
    res.location = next(res);
    return res;
  };
  const post = (form) =>
    request(form.url, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: form.body,
    });
  const portal = await follow(await request(authorizationUrl));
  const login = await follow(await post(formOf(portal, /\/start$/, { provider })));
  const back = await follow(await post(formOf(login, /\/login$/, { sub: person.sub })));
  const saml = back.status === 200 && back.body.includes('name="SAMLResponse"') ? formOf(back, /./, {}) : undefined;
  if (saml && done(saml.url))
    return JSON.stringify({ action: saml.url, ...Object.fromEntries(new URLSearchParams(saml.body)) });
  if (!back.location || !done(back.location))
    throw new Error(
      `the sign-in stopped at ${back.url} (HTTP ${back.status}): ${back.body
        .replace(/<[^>]+>/g, ' ')
        .replace(/\s+/g, ' ')
        .slice(0, 300)}`,
    );
  return back.location;
}

if (require.main === module) {
  runStepScript(
    'usage: person.js <authorization URL> <provider: google|microsoft> <demo person e-mail> <redirect URI>',
    4,
    signIn,
  );
}

module.exports = { signIn };
