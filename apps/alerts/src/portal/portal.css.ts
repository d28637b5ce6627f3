/** The portal's stylesheet: system fonts, a neutral palette, no images or web fonts. */
export const PORTAL_CSS = `
:root { --ink: #1f2328; --muted: #59636e; --line: #d1d9e0; --bg: #f6f8fa; --ok: #1a7f37; --bad: #cf222e; --warn: #9a6700; --accent: #0969da; }
* { box-sizing: border-box; }
body { margin: 0; font: 15px/1.45 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; color: var(--ink); background: var(--bg); }
header { background: #fff; border-bottom: 1px solid var(--line); padding: 12px 24px; }
.mark { font-weight: 600; letter-spacing: .02em; }
main { max-width: 1100px; margin: 0 auto; padding: 20px 24px 48px; }
h1 { font-size: 22px; margin: 8px 0 4px; }
h2 { font-size: 17px; margin: 0 0 6px; word-break: break-all; }
.sub { color: var(--muted); margin: 0 0 18px; }
.flash { border: 1px solid var(--line); border-left: 4px solid var(--accent); background: #fff; padding: 10px 14px; margin: 0 0 16px; }
.flash.bad { border-left-color: var(--bad); }
.secret { font-family: ui-monospace, SFMono-Regular, Menlo, monospace; background: var(--bg); padding: 6px 8px; display: block; margin: 8px 0; word-break: break-all; }
.card { background: #fff; border: 1px solid var(--line); border-radius: 6px; padding: 16px; margin: 0 0 16px; }
.facts { display: flex; flex-wrap: wrap; gap: 6px 18px; color: var(--muted); margin: 0 0 10px; font-size: 14px; }
.badge { display: inline-block; border-radius: 10px; padding: 0 8px; font-size: 13px; font-weight: 600; border: 1px solid currentColor; }
.badge.active, .badge.delivered { color: var(--ok); }
.badge.disabled, .badge.undeliverable, .badge.expired { color: var(--bad); }
.badge.held, .badge.awaiting_retry, .badge.pending { color: var(--warn); }
.badge.withheld, .badge.cancelled { color: var(--muted); }
.actions { display: flex; flex-wrap: wrap; gap: 8px; margin: 0 0 12px; }
.actions form { margin: 0; }
button { font: inherit; border: 1px solid var(--line); background: var(--bg); border-radius: 6px; padding: 4px 12px; cursor: pointer; }
button.primary { background: var(--accent); border-color: var(--accent); color: #fff; }
table { width: 100%; border-collapse: collapse; font-size: 14px; }
th, td { text-align: left; padding: 6px 8px; border-top: 1px solid var(--line); vertical-align: top; }
th { color: var(--muted); font-weight: 600; }
details summary { cursor: pointer; }
details table { margin: 6px 0 8px; background: var(--bg); }
pre { margin: 0; white-space: pre-wrap; word-break: break-all; font-size: 12px; }
.empty { color: var(--muted); }
.refusal { background: #fff; border: 1px solid var(--line); border-radius: 6px; padding: 24px; margin-top: 24px; }
`;
