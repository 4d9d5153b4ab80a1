import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import https from 'node:https';
import os from 'node:os';
import path from 'node:path';
import { chromium } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CHROMIUM, personContext } from '../support/browser.js';
import { describeEachStore, ok, TEST_SECRET_KEY, type Harness, type TestUser, type TestWorkspace } from '../support/harness.js';
import { eachStore, freePort, ROOT, runCli, sharedDatabaseUrl, startServer, type RunningServer } from '../support/processes.js';
import { listMessages, loadConfig } from '../support/src.js';

/*
 * Behind a proxy (docs/rules.md §1 Behind a proxy): which peers' X-Forwarded-For is believed (TRUST_PROXY),
 * so that every per-address rule counts the client and not the proxy; HSTS and Secure cookies under an
 * https PUBLIC_URL; and the whole of it behind a real Caddy terminating TLS, with Chromium signing in through it.
 */

const PASSWORD = 'a long enough passphrase';
const HSTS = 'max-age=31536000';
const TOKEN = /tto_[A-Za-z0-9_-]{43}/;

/** GET /api/auth as the workspace's administrator, from the peer `peer`, with X-Forwarded-For when given. */
const getAuth = (h: Harness, ws: TestWorkspace, peer: string, forwardedFor?: string) =>
  h.app.inject({
    method: 'GET',
    url: '/api/auth',
    headers: { host: ws.host, authorization: `Bearer ${ws.admin.token}`, ...(forwardedFor === undefined ? {} : { 'x-forwarded-for': forwardedFor }) },
    remoteAddress: peer,
  });

/** POST /api/auth/sign-in from the peer `peer`, with the X-Forwarded-For a proxy sent. */
const signIn = (h: Harness, ws: TestWorkspace, email: string, password: string, peer: string, forwardedFor: string) =>
  h.app.inject({
    method: 'POST',
    url: '/api/auth/sign-in',
    headers: { host: ws.host, 'content-type': 'application/json', 'x-forwarded-for': forwardedFor },
    payload: JSON.stringify({ email, password }),
    remoteAddress: peer,
  });

/** A user of a fresh workspace whose account has PASSWORD (a mailed link's session sets it). */
async function withPassword(h: Harness): Promise<{ ws: TestWorkspace; user: TestUser }> {
  const ws = await h.workspace();
  const user = await h.user(ws);
  await ok(h.call('POST', '/api/auth/email-link', { host: ws.host, body: { email: user.email } }));
  const message = (await listMessages(h.app.db, { organizationId: ws.organizationId })).filter((m) => m.to === user.email).at(-1)!;
  const session = (await ok(h.call('POST', '/api/auth/one-time', { host: ws.host, body: { token: TOKEN.exec(message.body)![0] } }))).token;
  await ok(h.call('PUT', '/api/auth/password', { host: ws.host, token: session, body: { newPassword: PASSWORD } }));
  return { ws, user };
}

describe('TRUST_PROXY at config load', () => {
  it('unset, empty or false trusts no proxy; a whole number is that many hops; a list keeps its IPv4 and IPv6 addresses and CIDR ranges', () => {
    expect(loadConfig({}).trustProxy).toBe(false);
    expect(loadConfig({ TRUST_PROXY: '' }).trustProxy).toBe(false);
    expect(loadConfig({ TRUST_PROXY: 'false' }).trustProxy).toBe(false);
    expect(loadConfig({ TRUST_PROXY: '1' }).trustProxy).toBe(1);
    expect(loadConfig({ TRUST_PROXY: ' 2 ' }).trustProxy).toBe(2);
    expect(loadConfig({ TRUST_PROXY: '127.0.0.1, 10.0.0.0/8,::1,fd00::/8' }).trustProxy).toEqual(['127.0.0.1', '10.0.0.0/8', '::1', 'fd00::/8']);
  });

  it('true, 0, /0, a prefix too long, a name or a malformed address is refused with a message naming TRUST_PROXY', () => {
    expect(() => loadConfig({ TRUST_PROXY: 'true' })).toThrow(
      'TRUST_PROXY=true is refused: it would believe X-Forwarded-For from any peer. Give false, a number of hops ≥ 1, or a comma-separated list of IP addresses and CIDR ranges (e.g. 127.0.0.1,10.0.0.0/8,::1)',
    );
    expect(() => loadConfig({ TRUST_PROXY: '0' })).toThrow('TRUST_PROXY must be false, a number of hops ≥ 1, or a comma-separated list of IP addresses and CIDR ranges (e.g. 127.0.0.1,10.0.0.0/8,::1), got "0"');
    for (const [value, entry] of [
      ['0.0.0.0/0', '0.0.0.0/0'],
      ['::/0', '::/0'],
      ['10.0.0.0/33', '10.0.0.0/33'],
      ['::1/129', '::1/129'],
      ['proxy.internal', 'proxy.internal'],
      ['10.0.0', '10.0.0'],
      ['127.0.0.1,,::1', ''],
      ['10.0.0.0/8/1', '10.0.0.0/8/1'],
      ['10.0.0.0/x', '10.0.0.0/x'],
      ['-1', '-1'],
    ]) {
      expect(() => loadConfig({ TRUST_PROXY: value }), value).toThrow(
        `TRUST_PROXY must be false, a number of hops ≥ 1, or a comma-separated list of IP addresses and CIDR ranges (e.g. 127.0.0.1,10.0.0.0/8,::1): "${entry}" is not an IP address or CIDR range`,
      );
    }
  });
});

for (const store of eachStore) {
  describe(`TRUST_PROXY at startup [${store.name}]`, () => {
    it('the server refuses to start with TRUST_PROXY=true: exit 1 and a message naming TRUST_PROXY', async () => {
      const child = spawn(process.execPath, [path.join(ROOT, 'bin/start.js')], {
        cwd: ROOT,
        env: { ...process.env, PORT: '0', HOST: '127.0.0.1', DATABASE_URL: sharedDatabaseUrl(store), SECRET_KEY: TEST_SECRET_KEY, TRUST_PROXY: 'true' },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      let stderr = '';
      child.stderr.on('data', (chunk) => (stderr += chunk));
      const timer = setTimeout(() => child.kill('SIGKILL'), 60_000);
      const code = await new Promise<number | null>((resolve) => child.on('exit', resolve));
      clearTimeout(timer);
      expect(code).toBe(1);
      expect(stderr).toContain('timetrack: could not start: TRUST_PROXY=true is refused: it would believe X-Forwarded-For from any peer.');
    }, 90_000);
  });
}

describeEachStore(
  'Behind no trusted proxy (TRUST_PROXY unset)',
  (h) => {
    it('X-Forwarded-For is ignored: clients it names behind one peer share that peer\'s address limit', async () => {
      const ws = await h.workspace();
      const statuses = [];
      for (const client of ['203.0.113.1', '203.0.113.2', '203.0.113.3', '203.0.113.4']) statuses.push((await getAuth(h, ws, '192.0.2.10', client)).statusCode);
      expect(statuses).toEqual([200, 200, 200, 429]);
    });
  },
  { trustProxy: false, rateLimit: { perAddressPerMinute: 3, perTokenPerMinute: 1_000_000 } },
);

describeEachStore(
  'Behind a trusted proxy (TRUST_PROXY=127.0.0.1)',
  (h) => {
    it('the address limit counts each client X-Forwarded-For names on its own', async () => {
      const ws = await h.workspace();
      const statuses = [];
      for (let i = 0; i < 4; i++) statuses.push((await getAuth(h, ws, '127.0.0.1', '203.0.113.1')).statusCode);
      expect(statuses).toEqual([200, 200, 200, 429]);
      const over = await getAuth(h, ws, '127.0.0.1', '203.0.113.1');
      expect(over.json()).toMatchObject({ status: 429, code: 'rate-limited' });
      expect((await getAuth(h, ws, '127.0.0.1', '203.0.113.2')).statusCode).toBe(200);
    });

    it('an untrusted peer\'s X-Forwarded-For is ignored: it is counted by its own address, which a trusted proxy\'s client of that address shares', async () => {
      const ws = await h.workspace();
      const statuses = [];
      for (const named of ['203.0.113.20', '203.0.113.21', '203.0.113.22', '203.0.113.23']) statuses.push((await getAuth(h, ws, '198.51.100.7', named)).statusCode);
      expect(statuses).toEqual([200, 200, 200, 429]);
      expect((await getAuth(h, ws, '127.0.0.1', '198.51.100.7')).statusCode).toBe(429);
      expect((await getAuth(h, ws, '127.0.0.1', '203.0.113.20')).statusCode).toBe(200);
    });
  },
  { trustProxy: ['127.0.0.1'], rateLimit: { perAddressPerMinute: 3, perTokenPerMinute: 1_000_000 } },
);

describeEachStore(
  'Behind one trusted hop (TRUST_PROXY=1)',
  (h) => {
    it('the sign-in lockout per address counts the client the proxy appended, not an address the client put in X-Forwarded-For itself', async () => {
      const { ws, user } = await withPassword(h);
      // Each wrong password names another address of its own, before the one the proxy appends.
      for (let i = 0; i < 3; i++) expect((await signIn(h, ws, user.email, `wrong passphrase ${i}`, '10.9.0.1', `203.0.113.${100 + i}, 198.51.100.1`)).statusCode).toBe(401);
      const locked = await signIn(h, ws, user.email, PASSWORD, '10.9.0.1', '203.0.113.200, 198.51.100.1');
      expect(locked.statusCode).toBe(429);
      expect(locked.json()).toMatchObject({ status: 429, code: 'rate-limited' });
      expect((await signIn(h, ws, user.email, PASSWORD, '10.9.0.1', '198.51.100.2')).statusCode).toBe(200);
      expect((await signIn(h, ws, user.email, PASSWORD, '10.9.0.2', '203.0.113.100, 198.51.100.3')).statusCode).toBe(200);
    });

    it('the password checks a minute per address count the client X-Forwarded-For names, so clients behind one proxy do not share them', async () => {
      const { ws, user } = await withPassword(h);
      const statuses = [];
      for (let i = 0; i < 6; i++) statuses.push((await signIn(h, ws, user.email, PASSWORD, '10.9.0.1', '198.51.100.50')).statusCode);
      expect(statuses).toEqual([200, 200, 200, 200, 200, 429]);
      expect((await signIn(h, ws, user.email, PASSWORD, '10.9.0.1', '198.51.100.51')).statusCode).toBe(200);
    });
  },
  {
    trustProxy: 1,
    signInLockout: { perAccount: 100, perAddress: 3, windowSeconds: 60 },
    signInAttemptsPerAddressPerMinute: 5,
    enumerationFloorMs: 20,
  },
);

/** The answers of every kind the service gives: an API record, a problem, an unknown path, a page, the health check. */
async function answersOfEveryKind(h: Harness) {
  const ws = await h.workspace();
  return {
    record: await h.call('GET', '/api/auth', { host: ws.host, token: ws.admin.token }),
    problem: await h.call('GET', '/api/auth', { host: ws.host }),
    unknown: await h.call('GET', '/api/no-such-route', { host: ws.host, token: ws.admin.token }),
    page: await h.call('GET', '/sign-in', { host: ws.host, headers: { accept: 'text/html' } }),
    health: await h.call('GET', '/healthz'),
  };
}

describeEachStore(
  'HSTS under an https PUBLIC_URL',
  (h) => {
    it('every answer carries Strict-Transport-Security: max-age=31536000 (API, problems, unknown paths, pages, health)', async () => {
      const answers = await answersOfEveryKind(h);
      expect(Object.fromEntries(Object.entries(answers).map(([kind, answer]) => [kind, [answer.status, answer.headers['strict-transport-security']]]))).toEqual({
        record: [200, HSTS],
        problem: [401, HSTS],
        unknown: [404, HSTS],
        page: [200, HSTS],
        health: [200, HSTS],
      });
    });
  },
  { publicUrl: 'https://timetrack.test' },
);

describeEachStore('HSTS under an http PUBLIC_URL', (h) => {
  it('no answer carries Strict-Transport-Security', async () => {
    const answers = await answersOfEveryKind(h);
    expect(Object.fromEntries(Object.entries(answers).map(([kind, answer]) => [kind, [answer.status, answer.headers['strict-transport-security']]]))).toEqual({
      record: [200, undefined],
      problem: [401, undefined],
      unknown: [404, undefined],
      page: [200, undefined],
      health: [200, undefined],
    });
  });
});

/* Behind a real Caddy with TLS, its certificate from a CA made for the test. */

const DOMAIN = 'acme';
/** Loopback addresses of two clients of the proxy (all of 127.0.0.0/8 is this machine). */
const CLIENT_A = '127.0.0.2';
const CLIENT_B = '127.0.0.3';

/** A CA, a server certificate it signs for localhost and the workspace's host, and an NSS database (Chromium's) that trusts the CA. */
function makeCertificates(dir: string): { ca: string; cert: string; key: string; home: string } {
  const file = (name: string) => path.join(dir, name);
  const openssl = (...args: string[]) => execFileSync('openssl', args, { cwd: dir, stdio: ['ignore', 'ignore', 'pipe'] });
  const ec = ['-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:P-256', '-nodes'];
  openssl('req', '-x509', ...ec, '-keyout', file('ca.key'), '-out', file('ca.crt'), '-days', '2', '-subj', '/CN=timetrack test CA',
    '-addext', 'basicConstraints=critical,CA:TRUE', '-addext', 'keyUsage=critical,keyCertSign,cRLSign');
  openssl('req', ...ec, '-keyout', file('server.key'), '-out', file('server.csr'), '-subj', '/CN=localhost');
  writeFileSync(file('server.ext'), [
    'basicConstraints=CA:FALSE',
    'keyUsage=critical,digitalSignature',
    'extendedKeyUsage=serverAuth',
    `subjectAltName=DNS:localhost,DNS:${DOMAIN}.localhost,IP:127.0.0.1,IP:::1`,
  ].join('\n'));
  openssl('x509', '-req', '-in', file('server.csr'), '-CA', file('ca.crt'), '-CAkey', file('ca.key'), '-set_serial', '0x1001', '-days', '2',
    '-extfile', file('server.ext'), '-out', file('server.crt'));
  const home = file('home');
  const nssdb = path.join(home, '.pki', 'nssdb');
  mkdirSync(nssdb, { recursive: true });
  execFileSync('certutil', ['-N', '-d', `sql:${nssdb}`, '--empty-password'], { stdio: 'ignore' });
  execFileSync('certutil', ['-A', '-d', `sql:${nssdb}`, '-n', 'timetrack test CA', '-t', 'C,,', '-i', file('ca.crt')], { stdio: 'ignore' });
  return { ca: readFileSync(file('ca.crt'), 'utf8'), cert: file('server.crt'), key: file('server.key'), home };
}

interface ProxyAnswer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: any;
}

/** Runs `caddy run` on `port` (both loopback families), terminating TLS and proxying to the server on `upstream`. */
function startCaddy(dir: string, port: number, upstream: number, tls: { cert: string; key: string }): ChildProcess {
  const caddyfile = path.join(dir, 'Caddyfile');
  writeFileSync(caddyfile, [
    '{',
    '\tadmin off',
    '\tauto_https off',
    '\tservers {',
    '\t\tprotocols h1 h2',
    '\t}',
    '}',
    `https://localhost:${port}, https://${DOMAIN}.localhost:${port} {`,
    '\tbind 127.0.0.1 [::1]',
    `\ttls ${tls.cert} ${tls.key}`,
    `\treverse_proxy 127.0.0.1:${upstream}`,
    '}',
    '',
  ].join('\n'));
  const home = path.join(dir, 'caddy-home');
  mkdirSync(home, { recursive: true });
  return spawn('caddy', ['run', '--config', caddyfile, '--adapter', 'caddyfile'], {
    cwd: dir,
    env: { ...process.env, HOME: home, XDG_DATA_HOME: path.join(home, 'data'), XDG_CONFIG_HOME: path.join(home, 'config') },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
}

for (const store of eachStore) describe(`Behind Caddy with TLS [${store.name}]`, { timeout: 120_000 }, () => {
  let dir = '';
  let server: RunningServer | undefined;
  let caddy: ChildProcess | undefined;
  let caddyLog = '';
  let ca = '';
  let home = '';
  let port = 0;
  let databaseUrl = '';
  let adminEmail = '';
  let mailedLink = '';

  /** One HTTPS request to the workspace through Caddy, from the loopback address `from`, trusting only the test's CA. */
  const viaProxy = (from: string, method: string, urlPath: string, options: { body?: unknown; token?: string; headers?: Record<string, string> } = {}) =>
    new Promise<ProxyAnswer>((resolve, reject) => {
      const headers: Record<string, string> = { host: `${DOMAIN}.localhost:${port}`, accept: 'application/json', ...options.headers };
      if (options.token) headers.authorization = `Bearer ${options.token}`;
      const body = options.body === undefined ? undefined : JSON.stringify(options.body);
      if (body !== undefined) headers['content-type'] = 'application/json';
      const req = https.request(
        { host: '127.0.0.1', port, localAddress: from, servername: `${DOMAIN}.localhost`, ca, method, path: urlPath, headers, agent: false, timeout: 15_000 },
        (res) => {
          let text = '';
          res.setEncoding('utf8');
          res.on('data', (chunk) => (text += chunk));
          res.on('end', () => {
            let parsed: unknown = text;
            try {
              parsed = text === '' ? undefined : JSON.parse(text);
            } catch {
              // a page: kept as text
            }
            resolve({ status: res.statusCode ?? 0, headers: res.headers, body: parsed });
          });
        },
      );
      req.on('timeout', () => req.destroy(new Error(`${method} ${urlPath} through Caddy took over 15 s`)));
      req.on('error', reject);
      req.end(body);
    });

  beforeAll(async () => {
    dir = mkdtempSync(path.join(os.tmpdir(), 'timetrack-proxy-'));
    const certificates = makeCertificates(dir);
    ({ ca, home } = certificates);
    port = await freePort();
    databaseUrl = sharedDatabaseUrl(store);
    server = await startServer(
      {
        DATABASE_URL: databaseUrl,
        BASE_DOMAIN: 'localhost',
        PUBLIC_URL: `https://localhost:${port}`,
        TRUST_PROXY: '127.0.0.1',
        BOOTSTRAP: 'false',
        SECRET_KEY: TEST_SECRET_KEY,
        SIGN_IN_FAILURES_PER_ACCOUNT: '100',
        SIGN_IN_FAILURES_PER_ADDRESS: '3',
        LOG_LEVEL: 'info',
      },
      { startTimeoutMs: 90_000 },
    );
    caddy = startCaddy(dir, port, server.port, certificates);
    caddy.stdout!.on('data', (chunk) => (caddyLog += chunk));
    caddy.stderr!.on('data', (chunk) => (caddyLog += chunk));
    const caddyExited = new Promise<void>((resolve) => caddy!.on('exit', () => resolve()));
    // Caddy is ready when the server's health check answers through it (at most 15 s).
    let ready = false;
    for (let i = 0; i < 150 && !ready; i++) {
      if (caddy.exitCode !== null) throw new Error(`caddy exited with ${caddy.exitCode}:\n${caddyLog}`);
      ready = await viaProxy('127.0.0.1', 'GET', '/healthz').then((answer) => answer.status === 200, () => false);
      if (!ready) await Promise.race([new Promise((resolve) => setTimeout(resolve, 100)), caddyExited]);
    }
    if (!ready) throw new Error(`caddy did not answer through TLS within 15 s:\n${caddyLog}`);

    adminEmail = `admin@${DOMAIN}.test`;
    const made = await runCli(['workspace', 'create', '--domain', DOMAIN, '--name', 'Acme Ltd', '--admin-email', adminEmail, '--admin-name', 'Ada Admin', '--time-zone', 'UTC'], { DATABASE_URL: databaseUrl, SECRET_KEY: TEST_SECRET_KEY });
    expect(made.code, made.stderr).toBe(0);
    // A password, set through the proxy by the session of a mailed link.
    expect((await viaProxy('127.0.0.1', 'POST', '/api/auth/email-link', { body: { email: adminEmail } })).status).toBe(200);
    const outbox = await runCli(['outbox', 'list', '--domain', DOMAIN], { DATABASE_URL: databaseUrl, SECRET_KEY: TEST_SECRET_KEY });
    expect(outbox.code, outbox.stderr).toBe(0);
    mailedLink = /https?:\/\/[^\s"\\]+\/auth\/one-time\?token=tto_[\w-]+/.exec(outbox.stdout)?.[0] ?? '';
    const session = await viaProxy('127.0.0.1', 'POST', '/api/auth/one-time', { body: { token: TOKEN.exec(mailedLink)?.[0] } });
    expect(session.status).toBe(200);
    expect((await viaProxy('127.0.0.1', 'PUT', '/api/auth/password', { token: session.body.token, body: { newPassword: PASSWORD } })).status).toBe(200);
  }, 180_000);

  afterAll(async () => {
    if (caddy && caddy.exitCode === null) {
      const exited = new Promise((resolve) => caddy!.on('exit', resolve));
      caddy.kill('SIGTERM');
      await Promise.race([exited, new Promise((resolve) => setTimeout(resolve, 5_000))]);
      if (caddy.exitCode === null) caddy.kill('SIGKILL');
    }
    if (server && server.child.exitCode === null) {
      server.child.kill('SIGTERM');
      await Promise.race([server.exited, new Promise((resolve) => setTimeout(resolve, 10_000))]);
      if (server.child.exitCode === null) server.child.kill('SIGKILL');
    }
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  const signIn = (from: string, password: string, headers: Record<string, string> = {}) =>
    viaProxy(from, 'POST', '/api/auth/sign-in', { body: { email: adminEmail, password }, headers });

  it('the lockout of one client leaves another client of the same proxy unaffected, and the locked client cannot leave it by sending X-Forwarded-For', async () => {
    for (let i = 0; i < 3; i++) expect((await signIn(CLIENT_A, `wrong passphrase ${i}`)).status).toBe(401);
    const locked = await signIn(CLIENT_A, PASSWORD);
    expect(locked.status).toBe(429);
    expect(locked.body).toMatchObject({ status: 429, code: 'rate-limited' });
    expect((await signIn(CLIENT_A, PASSWORD, { 'x-forwarded-for': '203.0.113.9' })).status).toBe(429);
    const other = await signIn(CLIENT_B, PASSWORD);
    expect(other.status).toBe(200);
    expect(other.body).toMatchObject({ domain: DOMAIN, email: adminEmail, token: expect.stringMatching(/^tts_/) });
  });

  it('through the proxy the session cookie is Secure and HttpOnly, answers carry HSTS, and a mailed link is https at PUBLIC_URL', async () => {
    const signedIn = await signIn('127.0.0.4', PASSWORD);
    expect(signedIn.status).toBe(200);
    const cookie = String(signedIn.headers['set-cookie']);
    expect(cookie).toMatch(new RegExp(`^timetrack_access_token=${signedIn.body.token}; `));
    expect(cookie.split('; ').slice(1).map((attribute) => attribute.split('=')[0]).sort()).toEqual(['Expires', 'HttpOnly', 'Path', 'SameSite', 'Secure']);
    expect(signedIn.headers['strict-transport-security']).toBe(HSTS);
    const page = await viaProxy('127.0.0.4', 'GET', '/sign-in', { headers: { accept: 'text/html' } });
    expect([page.status, page.headers['strict-transport-security']]).toEqual([200, HSTS]);
    const problem = await viaProxy('127.0.0.4', 'GET', '/api/auth');
    expect([problem.status, problem.headers['strict-transport-security']]).toEqual([401, HSTS]);
    expect(mailedLink).toMatch(new RegExp(`^https://${DOMAIN}\\.localhost:${port}/auth/one-time\\?token=tto_`));
  });

  it('Chromium, trusting the test CA, signs in to the web app with a password through the proxy and holds a Secure cookie', async () => {
    const origin = `https://${DOMAIN}.localhost:${port}`;
    // Chromium reads the CAs it trusts from $HOME/.pki/nssdb: no certificate error is ignored, and without the test's CA the page does not open.
    const launch = (withHome: string) => chromium.launch({
      executablePath: CHROMIUM,
      args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
      env: { ...process.env, HOME: withHome },
    });
    const untrusting = await launch(mkdtempSync(path.join(dir, 'empty-home-')));
    try {
      await expect((await untrusting.newPage()).goto(`${origin}/`)).rejects.toThrow(/net::ERR_CERT_AUTHORITY_INVALID/);
    } finally {
      await untrusting.close();
    }
    const browser = await launch(home);
    try {
      const context = await personContext(browser);
      const page = await context.newPage();
      const first = await page.goto(`${origin}/`);
      expect(first?.headers()['strict-transport-security']).toBe(HSTS);
      await page.waitForURL((url) => url.pathname === '/sign-in');
      await page.locator('#password-email').fill(adminEmail);
      await page.getByLabel('Password', { exact: true }).fill(PASSWORD);
      await page.getByRole('button', { name: 'Sign in', exact: true }).click();
      await page.getByRole('heading', { name: 'Track' }).waitFor();
      const cookies = await context.cookies(origin);
      expect(cookies.map((cookie) => ({ name: cookie.name, secure: cookie.secure, httpOnly: cookie.httpOnly, domain: cookie.domain }))).toEqual([
        { name: 'timetrack_access_token', secure: true, httpOnly: true, domain: `${DOMAIN}.localhost` },
      ]);
      await context.close();
    } finally {
      await browser.close();
    }
  });
});
