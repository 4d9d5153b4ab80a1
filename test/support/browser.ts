import { AxeBuilder } from '@axe-core/playwright';
import { existsSync, mkdirSync } from 'node:fs';
import path from 'node:path';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { expect } from 'vitest';
import { freePort, request, ROOT, runCli, sharedDatabaseUrl, startServer, type RunningServer } from './processes.js';
import type { TestStore } from './stores.js';

/*
 * The browser tests' world: the real server as `npm start` runs it (bin/start.js, which builds the
 * web app when it is stale) on a port of its own, and the OS's Chromium driven by playwright-core.
 */

export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
export const ARTIFACTS = path.join(ROOT, 'test-artifacts');

/** Chromium, or a clear failure: a missing browser never skips a test. */
export async function launchChromium(): Promise<Browser> {
  if (!existsSync(CHROMIUM)) {
    throw new Error(
      `The browser tests need Chromium at ${CHROMIUM} (set CHROMIUM_PATH to use another): install it with ` +
        '`apt-get install chromium` (.ci/run does), Playwright\'s own download is not used.',
    );
  }
  return chromium.launch({
    executablePath: CHROMIUM,
    args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
  });
}

export interface WebWorld {
  server: RunningServer;
  port: number;
  databaseUrl: string;
  /** `http://<domain>.localhost:<port>`: Chromium resolves *.localhost to this machine. */
  origin(domain: string): string;
  /** One request to the API as a client other than the browser (curl's part). */
  api(domain: string, method: string, path: string, options?: { token?: string; body?: unknown; headers?: Record<string, string> }): Promise<{ status: number; body: any; headers: Record<string, unknown> }>;
  /** A workspace made by the operator CLI: its administrator's email and API key. */
  workspace(domain: string): Promise<{ domain: string; adminEmail: string; adminKey: string }>;
  stop(): Promise<void>;
}

/** Starts the server on a store (PUBLIC_URL names its own port, so the CSRF check knows the app's origin). */
export async function startWebWorld(store: TestStore, env: Record<string, string> = {}): Promise<WebWorld> {
  const port = await freePort();
  const databaseUrl = sharedDatabaseUrl(store);
  const server = await startServer({
    PORT: String(port),
    DATABASE_URL: databaseUrl,
    BASE_DOMAIN: 'localhost',
    PUBLIC_URL: `http://localhost:${port}`,
    BOOTSTRAP: 'false',
    LOG_LEVEL: 'info',
    ...env,
  }, { startTimeoutMs: 90_000 });
  const world: WebWorld = {
    server,
    port,
    databaseUrl,
    origin: (domain) => `http://${domain}.localhost:${port}`,
    async api(domain, method, urlPath, options = {}) {
      const headers: Record<string, string> = { host: `${domain}.localhost:${port}`, accept: 'application/json', ...options.headers };
      if (options.token) headers.authorization = `Bearer ${options.token}`;
      let body: string | undefined;
      if (options.body !== undefined) {
        body = JSON.stringify(options.body);
        headers['content-type'] = 'application/json';
      }
      return request(port, method, `/api${urlPath}`, headers, body);
    },
    async workspace(domain) {
      const adminEmail = `admin@${domain}.test`;
      const made = await runCli(['workspace', 'create', '--domain', domain, '--name', `${domain} Ltd`, '--admin-email', adminEmail, '--admin-name', 'Ada Admin', '--time-zone', 'UTC'], { DATABASE_URL: databaseUrl });
      expect(made.code, made.stderr).toBe(0);
      return { domain, adminEmail, adminKey: JSON.parse(made.stdout).apiKey as string };
    },
    async stop() {
      server.child.kill('SIGTERM');
      await server.exited;
    },
  };
  return world;
}

/** A page's serious and critical accessibility violations (axe-core), as readable lines. */
export async function seriousViolations(page: Page): Promise<string[]> {
  const results = await new AxeBuilder({ page }).analyze();
  return results.violations
    .filter((violation) => violation.impact === 'serious' || violation.impact === 'critical')
    .map((violation) => `${violation.id} (${violation.impact}): ${violation.help} — ${violation.nodes.map((node) => node.target.join(' ')).join(', ')}`);
}

/** A full-page screenshot at the width of a small phone, kept in test-artifacts/ for review. */
export async function phoneScreenshot(page: Page, name: string): Promise<string> {
  mkdirSync(ARTIFACTS, { recursive: true });
  const file = path.join(ARTIFACTS, `${name}-360.png`);
  await page.setViewportSize({ width: 360, height: 780 });
  await page.screenshot({ path: file, fullPage: true });
  return file;
}

/** A browser context as one person would have: their own cookies, a fixed locale and time zone. */
export async function personContext(browser: Browser, options: { timezoneId?: string } = {}): Promise<BrowserContext> {
  return browser.newContext({ locale: 'en-GB', timezoneId: options.timezoneId ?? 'UTC', viewport: { width: 1100, height: 800 } });
}
