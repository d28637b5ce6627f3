import { createHash } from 'node:crypto';

/**
 * The portal's base stylesheet (served from /signin/assets/portal.css: no inline styles). A
 * vanity domain's brand stylesheet comes after it and overrides the custom properties.
 */
export const PORTAL_CSS = `
:root { --primary: #1a4f8b; --on-primary: #ffffff; --secondary: #1a4f8b; --on-secondary: #ffffff; --accent: transparent; --text: #1d2329; --muted: #4a5560; --surface: #ffffff; --background: #f3f5f7; --error: #a4161a; --link: #1a4f8b; --heading: var(--text); --focus: #1a4f8b;
  --font-sans: system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; --font-serif: Georgia, "Times New Roman", serif; }
@media (prefers-color-scheme: dark) { :root { --text: #e8ecef; --muted: #b9c2ca; --surface: #1d2329; --background: #101418; --error: #ff9b9b; --link: #9cc4ff; --focus: #9cc4ff; } }
* { box-sizing: border-box; }
body { margin: 0; min-height: 100vh; font-family: var(--font-sans); color: var(--text); background-color: var(--background); display: flex; justify-content: center; align-items: flex-start; }
.portal { width: min(28rem, 100% - 2rem); margin: 4rem 1rem; padding: 2rem; background: var(--surface); color: var(--text); border-radius: 0.75rem; border-top: 0.4rem solid var(--accent); box-shadow: 0 1px 4px rgb(0 0 0 / 0.2); }
.logo img { display: block; max-width: 12rem; max-height: 4rem; width: auto; height: auto; margin: 0 0 1rem; }
h1 { font-size: 1.6rem; margin: 0 0 1rem; color: var(--heading); }
h2 { font-size: 1.1rem; }
a { color: var(--link); }
a:focus-visible, button:focus-visible, input:focus-visible { outline: 3px solid var(--focus); outline-offset: 2px; }
label { display: block; font-weight: 600; margin: 1rem 0 0.25rem; }
input[type=search] { width: 100%; padding: 0.6rem; font-size: 1rem; border: 1px solid var(--muted); border-radius: 0.4rem; background: var(--surface); color: var(--text); }
button, .provider { cursor: pointer; font: inherit; }
form { margin: 0; }
button.primary { margin-top: 0.75rem; padding: 0.6rem 1.2rem; border: 0; border-radius: 0.4rem; background: var(--primary); color: var(--on-primary); }
button.secondary { margin-top: 0.75rem; padding: 0.6rem 1.2rem; border: 0; border-radius: 0.4rem; background: var(--secondary); color: var(--on-secondary); }
button.link { padding: 0; border: 0; background: none; color: var(--link); text-decoration: underline; }
ul.providers, ul.schools { list-style: none; padding: 0; }
ul.providers li { margin: 0.75rem 0; }
.provider { display: flex; flex-direction: column; width: 100%; align-items: flex-start; gap: 0.5rem; padding: 0.75rem; border: 1px solid var(--muted); border-radius: 0.5rem; background: var(--surface); color: var(--text); text-align: start; text-decoration: none; }
.provider img { display: block; width: 15rem; max-width: 100%; height: 3rem; object-fit: contain; object-position: left center; }
ul.schools li { margin: 0.5rem 0; }
ul.apps { list-style: none; padding: 0; display: grid; gap: 0.75rem; }
.app-initial { display: inline-grid; place-items: center; flex: none; width: 2.5rem; height: 2.5rem; border-radius: 0.5rem; background: var(--primary); color: var(--on-primary); font-weight: 700; }
.error { color: var(--error); font-weight: 600; }
.actions { display: flex; gap: 0.75rem; }
.visually-hidden { position: absolute; width: 1px; height: 1px; overflow: hidden; clip-path: inset(50%); white-space: nowrap; }
`;

/** Where the pages link the stylesheet: `v` is its hash, so the long-cached URL changes with every change of it. */
export const PORTAL_CSS_HREF = `/signin/assets/portal.css?v=${createHash('sha256').update(PORTAL_CSS).digest('base64url').slice(0, 16)}`;
