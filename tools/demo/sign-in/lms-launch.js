#!/usr/bin/env node
// A person at a browser launching from the demo LMS, for the guides' shell blocks
// (docs/operators/connecting-your-lms.md): opens the activity on the LMS's course page as the demo
// person, goes through the tool's login initiation and the LMS's launch form to the app's launch
// URL, then makes the app's authorization request in the same browser and prints where it ends:
// the app's redirect URI with `code` (signed in without a sign-in page), or the page that refused.
//   node tools/demo/sign-in/lms-launch.js "$DEMO_LMS" arjun.menon@lioncity.edu.example "$AUTH_URL" "$APP_REDIRECT_URI"
'use strict';
const { demoLmsConfig } = require('./lms');
const { browser, unescapeHtml } = require('./cookie-fetch');
const { runStepScript } = require('./script');

const textOf = (html) =>
  html
    .replace(/<[^>]+>/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();

/** The page that stopped the trip, as a person reads it: its heading and message. */
function refusal(res) {
  const h1 = /<h1>([\s\S]*?)<\/h1>/.exec(res.body);
  const alert = /<p class="error"[^>]*>([\s\S]*?)<\/p>/.exec(res.body);
  return `refused (HTTP ${res.status}): ${unescapeHtml(textOf(h1 ? h1[1] : ''))}: ${unescapeHtml(textOf(alert ? alert[1] : res.body)).slice(0, 300)}`;
}

async function launch(lmsUrl, email, authorizationUrl, redirectUri) {
  const index = demoLmsConfig().people.findIndex((p) => p.email === email);
  if (index < 0) throw new Error(`no demo LMS person ${email} (tools/demo/sign-in/demo-lms.json)`);
  const request = browser();
  const initiation = await request(`${lmsUrl}/launch?person=${index}`);
  const login = initiation.location ? await request(initiation.location) : initiation;
  if (!login.location) return refusal(login);
  const atLms = await request(login.location);
  const form = /<form method="post" action="([^"]+)">([\s\S]*?)<\/form>/.exec(atLms.body);
  if (!form) return refusal(atLms);
  const fields = new URLSearchParams(
    [...form[2].matchAll(/<input type="hidden" name="([^"]+)" value="([^"]*)">/g)].map((m) => [
      m[1],
      unescapeHtml(m[2]),
    ]),
  );
  const launched = await request(unescapeHtml(form[1]), {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: fields.toString(),
  });
  if (launched.status !== 303) return refusal(launched);
  // The app's launch URL would start its sign-in: its authorization request, in the same browser.
  let res = await request(authorizationUrl);
  while (res.location && !res.location.startsWith(redirectUri)) res = await request(res.location);
  return res.location ? res.location : refusal(res);
}

if (require.main === module) {
  runStepScript(
    'usage: lms-launch.js <demo LMS URL> <demo LMS person e-mail> <authorization URL> <redirect URI>',
    4,
    launch,
  );
}

module.exports = { launch };
