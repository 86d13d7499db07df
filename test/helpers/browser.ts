// A real browser for the tests of what shows in one (the sandbox console): Debian's
// Chromium, driven by playwright-core, headless, with a fresh profile directory. A machine
// without /usr/bin/chromium fails the test that asks for it, saying how to install it (CI
// installs it: .ci/run): a browser test never passes without a browser.
//
// Also: screenshots of a page when a step fails (in .tmp/browser-failures/, named by the
// step), an axe-core scan of the page as it is, and screenshots for the docs, written only
// when WS_UPDATE_SCREENSHOTS=1 (the walkthrough's pictures come from the test itself).

import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { type BrowserContext, chromium, type Page } from 'playwright-core';

export const CHROMIUM = '/usr/bin/chromium';
const ROOT = resolve(import.meta.dirname, '../..');
const FAILURES = join(ROOT, '.tmp', 'browser-failures');

export interface Browser {
  context: BrowserContext;
  page: Page;
  close(): Promise<void>;
}

/**
 * Chromium with a fresh profile; `hostRules` maps host names to addresses (a name that
 * resolves to 127.0.0.1, for the DNS rebinding test).
 */
export async function launchChromium(hostRules?: string): Promise<Browser> {
  if (!existsSync(CHROMIUM)) {
    throw new Error(
      `No Chromium at ${CHROMIUM}: the console's tests drive a real browser. Install Debian's: apt-get update && apt-get install -y chromium (.ci/run does).`,
    );
  }
  const profile = mkdtempSync(join(tmpdir(), 'ws-chromium-'));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM,
    headless: true,
    viewport: { width: 1280, height: 800 },
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      ...(hostRules === undefined ? [] : [`--host-resolver-rules=${hostRules}`]),
    ],
  });
  const page = context.pages()[0] ?? (await context.newPage());
  return {
    context,
    page,
    async close() {
      await context.close();
      rmSync(profile, { recursive: true, force: true });
    },
  };
}

/** Run a step; when it fails, a screenshot of the page is kept and named in the error. */
export async function step(page: Page, name: string, fn: () => Promise<void>): Promise<void> {
  try {
    await fn();
  } catch (err) {
    mkdirSync(FAILURES, { recursive: true });
    const file = join(FAILURES, `${name.replace(/[^\w-]+/g, '-')}.png`);
    try {
      await page.screenshot({ path: file, fullPage: true });
      (err as Error).message += `\n(screenshot of the page: ${file})`;
    } catch {
      // the page is gone: no screenshot
    }
    throw err;
  }
}

/** A screenshot for the docs (docs/console/NAME.png), taken when WS_UPDATE_SCREENSHOTS=1. */
export async function docShot(page: Page, name: string): Promise<void> {
  if (process.env['WS_UPDATE_SCREENSHOTS'] !== '1') return;
  const dir = join(ROOT, 'docs', 'console');
  mkdirSync(dir, { recursive: true });
  await page.screenshot({ path: join(dir, `${name}.png`) });
}

const axeSource = readFileSync(
  createRequire(import.meta.url).resolve('axe-core/axe.min.js'),
  'utf8',
);

export interface AxeViolation {
  id: string;
  impact: string | null;
  help: string;
  nodes: string[];
}

/**
 * axe-core's violations on the page as it is (evaluated through the DevTools protocol, so the
 * page's Content-Security-Policy stays as it is).
 */
export async function axeViolations(page: Page): Promise<AxeViolation[]> {
  await page.evaluate(axeSource);
  return page.evaluate(async () => {
    // The page's globals (this function runs in the browser): axe is the script just evaluated.
    // biome-ignore lint/suspicious/noExplicitAny: the page's window, untyped here
    const g = globalThis as any;
    const result = await g.axe.run(g.document, { resultTypes: ['violations'] });
    return result.violations.map(
      (v: { id: string; impact: string | null; help: string; nodes: { target: string[] }[] }) => ({
        id: v.id,
        impact: v.impact,
        help: v.help,
        nodes: v.nodes.map((n) => n.target.join(' ')),
      }),
    );
  });
}
