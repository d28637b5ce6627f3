import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { chromium, type Browser, type LaunchOptions, type Page } from 'playwright-core';

/** Debian's Chromium (installed by .ci/run); never a browser downloaded by a test tool. */
export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
/** The flags a machine without outside network needs (no background connections, no QUIC). */
export const CHROMIUM_ARGS = ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'];

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
