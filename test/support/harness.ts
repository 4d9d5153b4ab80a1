import type { FastifyInstance } from 'fastify';
import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe } from 'vitest';
import { make } from './factories/index.js';
import { buildApp, loadConfig, type Config, type Role } from './src.js';
import { testStores, type TestStore } from './stores.js';
import { tempSqliteFile } from './sqlite-files.js';

export { ok } from './ok.js';

export const BASE_DOMAIN = 'timetrack.test';
export const TEST_SECRET_KEY = 'test-secret-key-of-at-least-32-characters';

export interface TestWorkspace {
  domain: string;
  host: string;
  organizationId: string;
  /** The first administrator. */
  admin: TestUser;
}

export interface TestUser {
  userId: string;
  email: string;
  token: string;
}

export interface Response {
  status: number;
  headers: import('node:http').OutgoingHttpHeaders;
  /** The parsed JSON body, or undefined when there is none. */
  body: any;
  text: string;
}

export interface CallOptions {
  host?: string;
  token?: string | null;
  body?: unknown;
  /** A raw body sent as is (for malformed JSON and other media types). */
  payload?: string | Buffer;
  headers?: Record<string, string>;
  query?: Record<string, string | string[]>;
}

export interface Harness {
  store: TestStore['name'];
  app: FastifyInstance;
  config: Config;
  /** Everything the app logged, for tests that read the logs. */
  logs: string[];
  call(method: string, url: string, options?: CallOptions): Promise<Response>;
  /** A new workspace with an administrator (created as the CLI does): make.workspace. */
  workspace(domain?: string): Promise<TestWorkspace>;
  /** A user in a workspace with an API key, made through the data layer (quicker than inviting, and archived on demand): make.user. */
  user(workspace: TestWorkspace, options?: { role?: Role; email?: string; archived?: boolean }): Promise<TestUser>;
}

/**
 * Declares the suite once per store (SQLite, and PostgreSQL when TEST_DATABASE_URL is set), each on
 * a database of its own built by the same buildApp the server uses. Test names carry the store.
 * SQLite runs in memory unless `onDisk`: a file, as the server runs it, with its reader thread.
 */
export function describeEachStore(
  title: string,
  define: (h: Harness) => void,
  overrides: Partial<Config> = {},
  options: { onDisk?: boolean } = {},
): void {
  for (const store of testStores) {
    describe(`${title} [${store.name}]`, () => {
      const url = options.onDisk && store.name === 'sqlite' ? `sqlite:${tempSqliteFile()}` : store.freshUrl();
      const logs: string[] = [];
      const harness = { store: store.name, logs } as Harness;
      beforeAll(async () => {
        const config: Config = {
          ...loadConfig({}),
          databaseUrl: url,
          baseDomain: BASE_DOMAIN,
          publicUrl: `http://${BASE_DOMAIN}:3000`,
          logLevel: 'info',
          // Suites send many requests from one address and token; test/security/rate-limits.test.ts proves the limits.
          rateLimit: { perAddressPerMinute: 1_000_000, perTokenPerMinute: 1_000_000 },
          oidcStartsPerAddressPerMinute: 1_000_000,
          // The server secret that seals secrets at rest (a test must not write a key file into the tree).
          secretKey: TEST_SECRET_KEY,
          ...overrides,
        };
        const logStream = new Writable({
          write(chunk, _encoding, done) {
            logs.push(String(chunk));
            done();
          },
        });
        harness.config = config;
        harness.app = await buildApp({ config, logStream });
      });
      afterAll(async () => {
        await harness.app?.close();
      });
      harness.call = (method, path, options = {}) => call(harness.app, method, path, options);
      harness.workspace = (domain) => make.workspace(harness, { domain });
      harness.user = (workspace, options) => make.user(harness, workspace, options);
      define(harness);
    });
  }
}

async function call(app: FastifyInstance, method: string, url: string, options: CallOptions): Promise<Response> {
  const headers: Record<string, string> = { accept: 'application/json', ...options.headers };
  if (options.host !== undefined) headers.host = options.host;
  if (options.token) headers.authorization = `Bearer ${options.token}`;
  let payload: string | Buffer | undefined = options.payload;
  if (options.body !== undefined) {
    payload = JSON.stringify(options.body);
    headers['content-type'] ??= 'application/json';
  }
  const response = await app.inject({ method: method as 'GET', url, headers, payload, query: options.query });
  let body: unknown;
  try {
    body = response.body === '' ? undefined : JSON.parse(response.body);
  } catch {
    body = undefined;
  }
  return { status: response.statusCode, headers: response.headers, body, text: response.body };
}

/** Calls as one user of one workspace: `as(ws, user).get('/api/...')`. */
export function as(h: Harness, workspace: TestWorkspace, user: TestUser = workspace.admin) {
  const send = (method: string) => (url: string, body?: unknown, options: CallOptions = {}) =>
    h.call(method, url, { host: workspace.host, token: user.token, body, ...options });
  return { get: send('GET'), post: send('POST'), put: send('PUT'), delete: send('DELETE'), patch: send('PATCH') };
}
