import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { make } from '../support/factories/index.js';
import { as, describeEachStore, type Harness } from '../support/harness.js';
import { eachStore, freePort, request, ROOT, sharedDatabaseUrl, startServer, type RunningServer } from '../support/processes.js';
import { deliverWebhooks, loadConfig } from '../support/src.js';

/** docs/operations.md "Metrics": GET /metrics in Prometheus's text format, from prom-client. */

const TOKEN = 'metrics-token-of-at-least-32-characters';
const publicMetrics = { metrics: { port: undefined, host: '127.0.0.1', public: true, token: TOKEN } };

/** Every series the service itself defines (beside prom-client's default process and Node.js ones). */
const SERIES = [
  'timetrack_http_requests_total',
  'timetrack_http_request_duration_seconds',
  'timetrack_http_requests_in_flight',
  'timetrack_rate_limited_total',
  'timetrack_sign_in_failures_total',
  'timetrack_db_pool_connections_in_use',
  'timetrack_db_pool_waiting',
  'timetrack_sqlite_wal_bytes',
  'timetrack_change_feed_lag_seconds',
  'timetrack_webhook_queue_age_seconds',
  'timetrack_webhook_deliveries_total',
  'timetrack_outbox_pending',
  'timetrack_imports_running',
];
/** Default Node.js metrics: event-loop lag, heap, garbage collection. */
const NODE_SERIES = ['nodejs_eventloop_lag_seconds', 'nodejs_heap_size_used_bytes', 'nodejs_gc_duration_seconds'];

const scrape = (h: Harness, headers: Record<string, string> = { authorization: `Bearer ${TOKEN}` }) => h.call('GET', '/metrics', { headers });

/** The sample lines of one series (its name followed by labels or a space). */
const samplesOf = (text: string, name: string) => text.split('\n').filter((line) => line.startsWith(`${name}{`) || line.startsWith(`${name} `));

/** `promtool check metrics` over a scrape's body: its exit code and everything it printed. */
function promtoolCheck(body: string): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn('promtool', ['check', 'metrics'], { stdio: ['pipe', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (chunk) => (output += chunk));
    child.stderr.on('data', (chunk) => (output += chunk));
    const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, output });
    });
    child.stdin.end(body);
  });
}

describeEachStore(
  'metrics on the public port, behind METRICS_TOKEN',
  (h) => {
    it('GET /metrics without the bearer METRICS_TOKEN, or with another, is 401 problem+json', async () => {
      for (const headers of [{}, { authorization: 'Bearer not-the-metrics-token-at-all-no-no-no' }, { authorization: `Basic ${TOKEN}` }] as Record<string, string>[]) {
        const res = await scrape(h, headers);
        expect(res.status).toBe(401);
        expect(res.headers['content-type']).toBe('application/problem+json; charset=utf-8');
        expect(res.body).toEqual({
          type: 'urn:timetrack:problem:unauthorized',
          title: 'Unauthorized',
          status: 401,
          detail: 'GET /metrics needs the bearer token METRICS_TOKEN.',
          code: 'unauthorized',
        });
      }
    });

    it('with the token, every series of the service and the Node.js defaults are there, in Prometheus text format', async () => {
      const ws = await h.workspace();
      await as(h, ws).get('/api/auth');
      const res = await scrape(h);
      expect(res.status).toBe(200);
      expect(res.headers['content-type']).toBe('text/plain; version=0.0.4; charset=utf-8');
      for (const name of [...SERIES, ...NODE_SERIES]) expect(res.text).toContain(`# HELP ${name} `);
      expect(samplesOf(res.text, 'timetrack_http_requests_total')).toContain('timetrack_http_requests_total{method="GET",route="/api/auth",status="200"} 1');
      expect(samplesOf(res.text, 'timetrack_imports_running')).toEqual(['timetrack_imports_running 0']);
      expect(samplesOf(res.text, 'timetrack_outbox_pending')).toHaveLength(1);
      expect(samplesOf(res.text, 'timetrack_db_pool_waiting')).toEqual(['timetrack_db_pool_waiting 0']);
      // The WAL's size is a SQLite file's: present on SQLite (on disk here), absent on PostgreSQL.
      const wal = samplesOf(res.text, 'timetrack_sqlite_wal_bytes');
      if (h.store === 'sqlite') expect(wal).toEqual([expect.stringMatching(/^timetrack_sqlite_wal_bytes \d+$/)]);
      else expect(wal).toEqual([]);
    });

    it('a request is labelled with its route pattern, never its path: no id, workspace or unknown path appears', async () => {
      const ws = await h.workspace();
      const activity = await make.activity(h, ws);
      expect((await as(h, ws).get(`/api/activities/${activity.id}`)).status).toBe(200);
      expect((await as(h, ws).get(`/api/no-such-route-${ws.domain}`)).status).toBe(404);
      const res = await scrape(h);
      expect(res.status).toBe(200);
      expect(samplesOf(res.text, 'timetrack_http_requests_total')).toContain('timetrack_http_requests_total{method="GET",route="/api/activities/:activityId",status="200"} 1');
      expect(samplesOf(res.text, 'timetrack_http_requests_total')).toContain('timetrack_http_requests_total{method="GET",route="unmatched",status="404"} 1');
      expect(res.text).toContain('timetrack_http_request_duration_seconds_count{method="GET",route="/api/activities/:activityId",status="200"} 1');
      expect(res.text).not.toContain(activity.id);
      expect(res.text).not.toContain(ws.domain);
      expect(res.text).not.toContain(ws.organizationId);
      expect(res.text).not.toContain('no-such-route');
    });

    it('a wrong password is counted as a failed sign-in', async () => {
      const ws = await h.workspace();
      const before = samplesOf((await scrape(h)).text, 'timetrack_sign_in_failures_total');
      expect(before).toContain('timetrack_sign_in_failures_total{method="password"} 0');
      const res = await h.call('POST', '/api/auth/sign-in', { host: ws.host, body: { email: ws.admin.email, password: 'not the password at all' } });
      expect(res.status).toBe(401);
      expect(samplesOf((await scrape(h)).text, 'timetrack_sign_in_failures_total')).toContain('timetrack_sign_in_failures_total{method="password"} 1');
    });

    it('change-feed lag is the age of the oldest event not yet queued for a webhook; queue age that of the oldest pending delivery', async () => {
      const ws = await h.workspace();
      expect((await as(h, ws).post('/api/webhooks', { url: 'https://receiver.invalid/hook', events: ['*'] })).status).toBe(200);
      const gauges = async () => {
        // An age is counted in milliseconds: let one pass, so that a waiting event's age is above 0.
        await new Promise((resolve) => setTimeout(resolve, 20));
        const text = (await scrape(h)).text;
        const value = (name: string) => Number(samplesOf(text, name)[0]!.split(' ')[1]);
        return { lag: value('timetrack_change_feed_lag_seconds'), queueAge: value('timetrack_webhook_queue_age_seconds') };
      };
      expect((await gauges()).lag).toBe(0);
      await make.activity(h, ws);
      expect((await gauges()).lag).toBeGreaterThan(0);
      // The pass queues the event and attempts the webhook's first delivery; the receiver's name does not
      // resolve, so it stays pending (the rest waits behind it).
      const pass = await deliverWebhooks(h.app);
      expect(pass).toEqual({ succeeded: 0, failed: 1, gaveUp: 0 });
      const queued = await gauges();
      expect(queued.lag).toBe(0);
      expect(queued.queueAge).toBeGreaterThan(0);
    });

    it('promtool check metrics passes on the output', async () => {
      const ws = await h.workspace();
      await as(h, ws).get('/api/auth');
      const res = await scrape(h);
      expect(res.status).toBe(200);
      expect(await promtoolCheck(res.text)).toEqual({ code: 0, output: '' });
    });
  },
  publicMetrics,
  { onDisk: true },
);

describeEachStore(
  'metrics: a value that cannot be read',
  (h) => {
    it('is left out of the scrape, which still answers 200 with the rest, and the failure is logged', async () => {
      await sql`drop table outbox`.execute(h.app.db);
      const res = await scrape(h);
      expect(res.status).toBe(200);
      expect(res.text).toContain('# HELP timetrack_outbox_pending ');
      expect(samplesOf(res.text, 'timetrack_outbox_pending')).toEqual([]);
      expect(samplesOf(res.text, 'timetrack_imports_running')).toEqual(['timetrack_imports_running 0']);
      expect(h.logs.some((line) => line.includes('"metric":"timetrack_outbox_pending"') && line.includes('metric could not be read'))).toBe(true);
    });
  },
  publicMetrics,
);

describeEachStore(
  'metrics: rate-limited answers',
  (h) => {
    it('each 429 is counted by its route pattern', async () => {
      const ws = await h.workspace();
      const statuses = [];
      for (let i = 0; i < 4; i++) statuses.push((await as(h, ws).get('/api/auth')).status);
      expect(statuses).toEqual([200, 200, 200, 429]);
      const res = await scrape(h);
      expect(samplesOf(res.text, 'timetrack_rate_limited_total')).toEqual(['timetrack_rate_limited_total{route="/api/auth"} 1']);
    });
  },
  { ...publicMetrics, rateLimit: { perAddressPerMinute: 3, perTokenPerMinute: 1_000_000 } },
);

describeEachStore('metrics off (the default)', (h) => {
  it('the public port has no /metrics: 404, on a workspace host and on the bare domain, with or without a token', async () => {
    const ws = await h.workspace();
    for (const host of [ws.host, h.config.baseDomain]) {
      for (const headers of [{}, { authorization: `Bearer ${TOKEN}` }] as Record<string, string>[]) {
        const res = await h.call('GET', '/metrics', { host, headers });
        expect(res.status).toBe(404);
        expect(res.body).toMatchObject({ status: 404, code: 'not-found' });
      }
    }
    expect(h.app.metrics).toBeUndefined();
  });
});

describe('metrics configuration', () => {
  it('METRICS_PORT unset is off; METRICS_HOST defaults to 127.0.0.1, METRICS_PUBLIC to false', () => {
    expect(loadConfig({}).metrics).toEqual({ port: undefined, host: '127.0.0.1', public: false, token: undefined });
    expect(loadConfig({ METRICS_PORT: '9464', METRICS_HOST: '0.0.0.0' }).metrics).toEqual({ port: 9464, host: '0.0.0.0', public: false, token: undefined });
    expect(loadConfig({ METRICS_PUBLIC: 'true', METRICS_TOKEN: TOKEN }).metrics).toEqual({ port: undefined, host: '127.0.0.1', public: true, token: TOKEN });
  });

  it('bad values are refused at load, naming the variable', () => {
    expect(() => loadConfig({ METRICS_PORT: 'nine' })).toThrow('METRICS_PORT must be a whole number from 0 to 65535, got "nine"');
    expect(() => loadConfig({ METRICS_PORT: '70000' })).toThrow('METRICS_PORT must be a whole number from 0 to 65535, got "70000"');
    expect(() => loadConfig({ METRICS_PUBLIC: 'yes' })).toThrow('METRICS_PUBLIC must be true or false, got "yes"');
    expect(() => loadConfig({ METRICS_PUBLIC: 'true' })).toThrow('METRICS_PUBLIC=true needs METRICS_TOKEN: the bearer token that guards /metrics on the public port');
    expect(() => loadConfig({ METRICS_PUBLIC: 'true', METRICS_TOKEN: 'short' })).toThrow('METRICS_TOKEN must be at least 32 characters long');
  });

  it('the server refuses to start with METRICS_PUBLIC=true and no METRICS_TOKEN: a clear message and exit 1', async () => {
    const child = spawn(process.execPath, [path.join(ROOT, 'bin/start.js')], {
      cwd: ROOT,
      env: { ...process.env, PORT: '0', HOST: '127.0.0.1', DATABASE_URL: 'sqlite::memory:', METRICS_PUBLIC: 'true', METRICS_TOKEN: '' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stderr = '';
    child.stderr!.on('data', (chunk) => (stderr += chunk));
    const timer = setTimeout(() => child.kill('SIGKILL'), 30_000);
    const code = await new Promise<number | null>((resolve) => child.on('exit', resolve));
    clearTimeout(timer);
    expect(code).toBe(1);
    expect(stderr).toBe('timetrack: could not start: METRICS_PUBLIC=true needs METRICS_TOKEN: the bearer token that guards /metrics on the public port\n');
  }, 40_000);
});

async function until<T>(what: string, timeoutMs: number, probe: () => Promise<T | undefined>): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe().catch(() => undefined);
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

const METRICS_LISTENING = /Metrics listening at http:\/\/127\.0\.0\.1:(\d+)\/metrics/;

for (const store of eachStore) {
  describe(`the metrics listener of METRICS_PORT, scraped by Prometheus [${store.name}]`, () => {
    let server: RunningServer;
    let metricsPort: number;
    let prometheus: ChildProcess | undefined;
    let scratch: string;

    beforeAll(async () => {
      scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'timetrack-prometheus-'));
      server = await startServer({ DATABASE_URL: sharedDatabaseUrl(store), METRICS_PORT: '0', SHUTDOWN_DRAIN_MS: '0', LOG_LEVEL: 'info' }, { startTimeoutMs: 60_000 });
      metricsPort = await until('the metrics listener', 10_000, async () => {
        const match = METRICS_LISTENING.exec(server.output());
        return match ? Number(match[1]) : undefined;
      });
    }, 90_000);

    afterAll(async () => {
      prometheus?.kill('SIGKILL');
      if (server && server.child.exitCode === null) {
        server.child.kill('SIGKILL');
        await server.exited;
      }
      if (scratch) fs.rmSync(scratch, { recursive: true, force: true });
    });

    it('answers GET /metrics only; the public port has none', async () => {
      const key = /API key: (ttk_[A-Za-z0-9_-]{43})/.exec(server.output())![1];
      expect((await request(server.port, 'GET', '/api/auth', { host: 'demo.localhost', authorization: `Bearer ${key}` })).status).toBe(200);
      const scraped = await request(metricsPort, 'GET', '/metrics');
      expect(scraped.status).toBe(200);
      expect(scraped.headers['content-type']).toBe('text/plain; version=0.0.4; charset=utf-8');
      expect(samplesOf(scraped.body, 'timetrack_http_requests_total')).toContain('timetrack_http_requests_total{method="GET",route="/api/auth",status="200"} 1');
      expect(samplesOf(scraped.body, 'timetrack_webhook_deliveries_total')).toEqual([
        'timetrack_webhook_deliveries_total{outcome="succeeded"} 0',
        'timetrack_webhook_deliveries_total{outcome="failed"} 0',
        'timetrack_webhook_deliveries_total{outcome="gave_up"} 0',
      ]);
      expect(await promtoolCheck(scraped.body)).toEqual({ code: 0, output: '' });
      for (const [method, urlPath] of [['GET', '/'], ['GET', '/healthz'], ['POST', '/metrics']]) {
        const res = await request(metricsPort, method, urlPath);
        expect(res.status).toBe(404);
        expect(res.body).toBe('Not found: this port answers only GET /metrics.\n');
      }
      for (const headers of [{ host: 'demo.localhost' }, { host: 'demo.localhost', authorization: `Bearer ${key}` }] as Record<string, string>[]) {
        expect((await request(server.port, 'GET', '/metrics', headers)).status).toBe(404);
      }
    });

    it('a request is in flight from its arrival until its response closes, also when its client goes before the answer', async () => {
      const inFlight = async () => {
        const scraped = await request(metricsPort, 'GET', '/metrics');
        return samplesOf(scraped.body, 'timetrack_http_requests_in_flight');
      };
      expect(await inFlight()).toEqual(['timetrack_http_requests_in_flight 0']);
      // Headers sent and accepted, body not yet: the server has the request and waits for the rest of it.
      const key = /API key: (ttk_[A-Za-z0-9_-]{43})/.exec(server.output())![1];
      const socket = net.connect(server.port, '127.0.0.1');
      await new Promise<void>((resolve) => socket.once('connect', () => resolve()));
      socket.write(
        `POST /api/activities HTTP/1.1\r\nHost: demo.localhost\r\nAuthorization: Bearer ${key}\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{"na`,
      );
      expect(await until('the request in flight', 10_000, async () => ((await inFlight())[0] === 'timetrack_http_requests_in_flight 1' ? true : undefined))).toBe(true);
      socket.destroy();
      expect(await until('the request out of flight', 10_000, async () => ((await inFlight())[0] === 'timetrack_http_requests_in_flight 0' ? true : undefined))).toBe(true);
    });

    it('a real Prometheus scrapes it, and a query through its HTTP API returns the request counter', async () => {
      const prometheusPort = await freePort();
      fs.writeFileSync(
        path.join(scratch, 'prometheus.yml'),
        [
          'global:',
          '  scrape_interval: 1s',
          'scrape_configs:',
          '  - job_name: timetrack',
          '    static_configs:',
          `      - targets: ['127.0.0.1:${metricsPort}']`,
          '',
        ].join('\n'),
      );
      prometheus = spawn(
        'prometheus',
        [
          `--config.file=${path.join(scratch, 'prometheus.yml')}`,
          `--storage.tsdb.path=${path.join(scratch, 'data')}`,
          `--web.listen-address=127.0.0.1:${prometheusPort}`,
        ],
        { stdio: 'ignore' },
      );
      const series = await until('Prometheus to answer a series of timetrack_http_requests_total', 30_000, async () => {
        const res = await request(prometheusPort, 'GET', `/api/v1/query?query=${encodeURIComponent('timetrack_http_requests_total{route="/api/auth"}')}`);
        return res.status === 200 && res.body.data.result.length > 0 ? res.body.data.result : undefined;
      });
      expect(series).toEqual([
        {
          metric: { __name__: 'timetrack_http_requests_total', instance: `127.0.0.1:${metricsPort}`, job: 'timetrack', method: 'GET', route: '/api/auth', status: '200' },
          value: [expect.any(Number), '1'],
        },
      ]);
    }, 45_000);

    it('the metrics listener closes when the server shuts down', async () => {
      server.child.kill('SIGTERM');
      expect(await server.exited).toBe(0);
      const refused = await request(metricsPort, 'GET', '/metrics').then(
        () => 'answered',
        (error: NodeJS.ErrnoException) => error.code,
      );
      expect(refused).toBe('ECONNREFUSED');
    }, 15_000);
  });
}
