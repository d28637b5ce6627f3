import { mkdirSync } from 'node:fs';
import path from 'node:path';
import {
  chromium,
  type Browser,
  type BrowserContext,
  type BrowserContextOptions,
  type LaunchOptions,
  type Page,
} from 'playwright-core';

/** Debian's Chromium (installed by .ci/run); never a browser downloaded by a test tool. */
export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
/** The flags a machine without outside network needs (no background connections, no QUIC). */
export const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

/** Screenshots land here (git-ignored); CI keeps them as artifacts. */
export const ARTIFACTS = path.resolve(__dirname, '..', '..', '..', 'test-artifacts');

/** Headless Chromium with those flags (plus `args`, e.g. --host-resolver-rules), and the artifacts folder. */
export async function launchChromium(args: string[] = [], o: LaunchOptions = {}): Promise<Browser> {
  mkdirSync(ARTIFACTS, { recursive: true });
  return chromium.launch({ executablePath: CHROMIUM, headless: true, ...o, args: [...CHROMIUM_ARGS, ...args] });
}

/** Saves what the page shows as test-artifacts/<name>.png and logs where. */
export async function screenshot(page: Page, name: string): Promise<string> {
  const file = path.join(ARTIFACTS, `${name}.png`);
  await page.screenshot({ path: file, fullPage: false });
  console.log(`screenshot: ${path.relative(process.cwd(), file)} (${file})`);
  return file;
}

/** The Chromium flag sending `hosts` (vanity domains in tests) to 127.0.0.1. */
export function resolveToLoopback(hosts: string[]): string {
  return `--host-resolver-rules=${hosts.map((d) => `MAP ${d} 127.0.0.1`).join(',')}`;
}

/**
 * A fresh browser profile whose requests may reach only the `allowed` origins (the servers under
 * test); any other request is aborted and its URL pushed to `outside`.
 */
export async function closedContext(
  browser: Browser,
  allowed: string[],
  outside: string[],
  o: BrowserContextOptions = {},
): Promise<BrowserContext> {
  const ctx = await browser.newContext({ viewport: { width: 1200, height: 760 }, ...o });
  await ctx.route('**/*', (route) => {
    const url = route.request().url();
    if (allowed.some((a) => url.startsWith(`${a}/`))) return route.continue();
    outside.push(url);
    return route.abort();
  });
  return ctx;
}
