'use strict';
// A person's browser for the demo scripts the guides run (person.js, lms-launch.js): fetch with
// a cookie jar per host name, one hop at a time, so each script follows the redirects it means to.

/** The entities the platform's and the demo's HTML escape in attribute values and text. */
const unescapeHtml = (s) =>
  s
    .replace(/&amp;/g, '&')
    .replace(/&quot;/g, '"')
    .replace(/&#(\d+);/g, (_m, n) => String.fromCharCode(Number(n)));

/** A request function keeping cookies per host name (a cookie set empty or with Max-Age=0 is dropped); redirects are not followed. */
function browser() {
  const jar = new Map();
  const cookies = (host) => jar.get(host) || jar.set(host, new Map()).get(host);
  return async function request(url, init = {}) {
    const u = new URL(url);
    const cookie = [...cookies(u.hostname)].map(([k, v]) => `${k}=${v}`).join('; ');
    const res = await fetch(u, {
      ...init,
      redirect: 'manual',
      headers: { ...init.headers, ...(cookie ? { cookie } : {}) },
    });
    for (const line of res.headers.getSetCookie()) {
      const [pair, ...attrs] = line.split(';');
      const [name, value] = [pair.slice(0, pair.indexOf('=')).trim(), pair.slice(pair.indexOf('=') + 1).trim()];
      if (value === '' || attrs.some((a) => /^\s*max-age=0\s*$/i.test(a))) cookies(u.hostname).delete(name);
      else cookies(u.hostname).set(name, value);
    }
    const location = res.headers.get('location');
    return {
      url: u.href,
      status: res.status,
      location: location ? new URL(location, u).href : undefined,
      body: await res.text(),
    };
  };
}

module.exports = { browser, unescapeHtml };
