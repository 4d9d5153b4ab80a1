import { execFileSync } from 'node:child_process';
import { copyFileSync } from 'node:fs';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, expect, vi } from 'vitest';
import { launchChromium, personContext, phoneScreenshot, seriousViolations } from '../support/browser.js';
import { make } from '../support/factories/index.js';
import { describeEachStore, type Harness, type TestUser, type TestWorkspace } from '../support/harness.js';
import { ROOT } from '../support/processes.js';

/*
 * The management pages' browser tests, on both stores: the suite's app (the buildApp every server
 * runs) listens on a port of its own and Chromium opens its workspaces at <domain>.localhost. A
 * person is signed in by the session cookie, as sign-in leaves it.
 */

/** A port free now: the suite's PUBLIC_URL names it, so cookie writes pass the Origin check (CSRF). */
function freePort(): number {
  // describeEachStore takes its configuration when the suite is declared, before anything can be awaited.
  const script = "const s=require('node:net').createServer();s.listen(0,'127.0.0.1',()=>{process.stdout.write(String(s.address().port));s.close()})";
  return Number(execFileSync(process.execPath, ['-e', script], { encoding: 'utf8' }));
}

export interface Browsing {
  h: Harness;
  /** A page signed in as `user` of `ws`, opened at `at` once its heading is shown. */
  open(ws: TestWorkspace, user: TestUser, at: string): Promise<Page>;
}

const pageErrors = new WeakMap<Page, string[]>();

export function describeInBrowser(title: string, define: (b: Browsing) => void): void {
  // A browser's steps take longer than an API call's, more so on a busy machine.
  vi.setConfig({ testTimeout: 180_000 });
  const port = freePort();
  describeEachStore(
    title,
    (h) => {
      let browser: Browser;
      beforeAll(async () => {
        [browser] = await Promise.all([launchChromium(), h.app.listen({ port, host: '127.0.0.1' })]);
      });
      afterAll(async () => {
        await browser?.close();
      });
      define({
        h,
        async open(ws, user, at) {
          const context = await personContext(browser);
          context.setDefaultTimeout(60_000);
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
    { baseDomain: 'localhost', publicUrl: `http://localhost:${port}` },
  );
}

/** axe on the page as it is: no serious or critical violation (and no script error so far). */
export async function expectAccessible(page: Page): Promise<void> {
  expect(pageErrors.get(page) ?? []).toEqual([]);
  expect(await seriousViolations(page)).toEqual([]);
}

/** The page at 360 px in test-artifacts/ (one per store); `readmeCopy` also keeps SQLite's for the README. */
export async function screenshot(page: Page, name: string, h: Harness, readmeCopy?: string): Promise<void> {
  const file = await phoneScreenshot(page, `${name}-${h.store}`);
  if (readmeCopy && h.store === 'sqlite') copyFileSync(file, path.join(ROOT, 'docs/screenshots', readmeCopy));
}
