import AxeBuilder from '@axe-core/playwright';
import { execFileSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync } from 'node:fs';
import path from 'node:path';
import { chromium, type Browser, type Page } from 'playwright-core';
import { afterAll, beforeAll, expect, vi } from 'vitest';
import { make } from '../support/factories/index.js';
import { BASE_DOMAIN, describeEachStore, type Harness, type TestUser, type TestWorkspace } from '../support/harness.js';
import { ROOT } from '../support/processes.js';

/**
 * The management pages' browser tests: the suite's app (the one buildApp every server runs)
 * listening on a port, driven by the OS's Chromium, which resolves every workspace host to this
 * machine. A person is signed in by a session cookie, as sign-in leaves it.
 */
const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const ARTIFACTS = path.join(ROOT, 'test-artifacts');

/** A port free now: the suite's PUBLIC_URL names it, so cookie writes pass the Origin check. */
function freePort(): number {
  const script = "const s=require('node:net').createServer();s.listen(0,'127.0.0.1',()=>{process.stdout.write(String(s.address().port));s.close()})";
  return Number(execFileSync(process.execPath, ['-e', script], { encoding: 'utf8' }));
}

export interface Browsing {
  h: Harness;
  /** A page at 360 px wide, signed in as `user` of `ws`, opened at `at`. */
  open(ws: TestWorkspace, user: TestUser, at: string): Promise<Page>;
}

export function describeInBrowser(title: string, define: (b: Browsing) => void): void {
  // A browser's steps take longer than an API call's, more so on a busy machine.
  vi.setConfig({ testTimeout: 90_000 });
  if (!existsSync(CHROMIUM)) throw new Error(`The browser tests need Chromium at ${CHROMIUM} (CHROMIUM_PATH): install the OS's chromium package.`);
  const port = freePort();
  describeEachStore(
    title,
    (h) => {
      let browser: Browser;
      beforeAll(async () => {
        await h.app.listen({ port, host: '127.0.0.1' });
        browser = await chromium.launch({ executablePath: CHROMIUM, args: [`--host-resolver-rules=MAP *.${BASE_DOMAIN} 127.0.0.1`, '--no-sandbox'] });
      });
      afterAll(async () => {
        await browser?.close();
      });
      define({
        h,
        async open(ws, user, at) {
          const context = await browser.newContext({ viewport: { width: 360, height: 800 }, locale: 'en-GB', timezoneId: 'UTC' });
          const origin = `http://${ws.host}:${port}`;
          await context.addCookies([{ name: 'timetrack_access_token', value: await make.session(h, user.userId), url: origin }]);
          const page = await context.newPage();
          const errors: string[] = [];
          pageErrors.set(page, errors);
          page.on('pageerror', (error) => errors.push(error.message));
          await page.goto(origin + at);
          await page.locator('main h1').first().waitFor();
          return page;
        },
      });
    },
    { publicUrl: `http://${BASE_DOMAIN}:${port}` },
  );
}

const pageErrors = new WeakMap<Page, string[]>();

/** axe on the page as it is: no serious or critical violation (and no script error so far). */
export async function expectAccessible(page: Page): Promise<void> {
  expect(pageErrors.get(page) ?? []).toEqual([]);
  const result = await new AxeBuilder({ page }).analyze();
  const bad = result.violations.filter((violation) => violation.impact === 'serious' || violation.impact === 'critical');
  expect(bad.map((violation) => `${violation.id}: ${violation.nodes.map((node) => node.target.join(' ')).join(', ')}`)).toEqual([]);
}

/** A full-page screenshot at 360 px, kept in test-artifacts/ (and, when named, copied for the README). */
export async function screenshot(page: Page, name: string, h: Harness, readmeCopy?: string): Promise<void> {
  mkdirSync(ARTIFACTS, { recursive: true });
  const file = path.join(ARTIFACTS, `${name}-${h.store}.png`);
  await page.screenshot({ path: file, fullPage: true });
  if (readmeCopy && h.store === 'sqlite') copyFileSync(file, path.join(ROOT, 'docs/screenshots', readmeCopy));
}
