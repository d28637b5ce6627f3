// The demo partner app's pages: what an app shows before and after signing a person in.
'use strict';
const { escapeHtml, page } = require('./html');

function homePage(appName) {
  return page(
    `${appName} (demo partner app)`,
    `<h1>${escapeHtml(appName)}</h1>
<p class="note">A demo partner app on this machine: a relying party on <code>openid-client</code> that signs people in through the platform's OpenID Connect provider.</p>
<p><a class="button" href="/login">Sign in with your school</a></p>`,
  );
}

const row = (k, v) =>
  `<tr><th scope="row">${escapeHtml(k)}</th><td>${escapeHtml(Array.isArray(v) ? v.join(', ') : v)}</td></tr>`;

/** The claims of the ID token openid-client verified (signature, iss, aud, exp, nonce). */
function signedInPage(appName, claims, logoutUrl) {
  return page(
    `${appName}: signed in`,
    `<h1>Signed in to ${escapeHtml(appName)}</h1>
<p>Welcome, <strong>${escapeHtml(claims.name || claims.sub)}</strong> of <strong>${escapeHtml(claims.tenant_name || 'your school')}</strong>.</p>
<h2>The verified claims</h2>
<p>From the ID token, verified by <code>openid-client</code> against the platform's discovery document and JWKS (signature, issuer, audience, expiry, nonce; the code exchanged with PKCE).</p>
<table>${Object.entries(claims)
      .map(([k, v]) => row(k, typeof v === 'object' && !Array.isArray(v) ? JSON.stringify(v) : v))
      .join('')}</table>
<pre id="claims">${escapeHtml(JSON.stringify(claims, null, 2))}</pre>
<p><a class="button" href="${escapeHtml(logoutUrl)}">Sign out</a> <a href="/login">Sign in again</a></p>`,
  );
}

function problemPage(appName, title, detail) {
  return page(
    `${appName}: ${title}`,
    `<h1>${escapeHtml(title)}</h1><p class="error" role="alert">${escapeHtml(detail)}</p><p><a class="button" href="/login">Try again</a> <a href="/">Home</a></p>`,
  );
}

module.exports = { homePage, signedInPage, problemPage };
