import type { FastifyBaseLogger, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { timingSafeEqual } from 'node:crypto';
import { collectDefaultMetrics, Counter, Gauge, Registry, type GaugeConfiguration, type MetricObjectWithValues, type MetricValue } from 'prom-client';
import { runningImportsOf } from '../areas/imports/index.js';
import type { WebhookPassResult } from '../areas/webhooks/index.js';
import { oldestPendingDelivery, oldestUnqueuedChange, unsentMailCount } from '../db/backlog.js';
import { unauthorized } from '../domain/errors.js';
import { hashToken } from '../lib/tokens.js';

/** The Prometheus metrics of one app (docs/operations.md "Metrics"), each app in a registry of its own. */
export interface Metrics {
  registry: Registry;
  /** The series as Prometheus reads them, and their content type. */
  scrape(): Promise<{ body: string; contentType: string }>;
  /** Counts the outcomes of the server's webhook worker (its running totals, read at each scrape). */
  countWebhookDeliveries(outcomes: Readonly<WebhookPassResult>): void;
  /** Starts the listener of METRICS_HOST:METRICS_PORT, which answers only GET /metrics and closes with the app; answers its address. */
  listen(): Promise<AddressInfo>;
  /**
   * Counts one answered request under its route pattern (undefined: no route took it, UNMATCHED_ROUTE), with
   * its duration. Called by the access log's hook, the one hook every answered request runs.
   */
  answered(route: string | undefined, request: FastifyRequest, reply: FastifyReply): void;
}

declare module 'fastify' {
  interface FastifyInstance {
    /** Undefined when metrics are off (neither METRICS_PORT nor METRICS_PUBLIC). */
    metrics: Metrics | undefined;
  }
}

/** The route label of a request no route matched: never its path, which may hold an id or anything a client sends. */
export const UNMATCHED_ROUTE = 'unmatched';

/** Request duration buckets, in seconds: from a cached read to a long export. */
const DURATION_BUCKETS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30];

/** The routes where a 401 is a failed sign-in, and the way of signing in each counts as. */
const SIGN_IN_ROUTES: Readonly<Record<string, string>> = {
  '/api/auth/sign-in': 'password',
  '/api/auth/two-factor/verify': 'two_factor',
};

const BEARER = /^Bearer +([^\s]+) *$/i;

const ageInSeconds = (at: string | undefined, now: number): number => (at === undefined ? 0 : Math.max(0, (now - Date.parse(at)) / 1000));

/**
 * A gauge read from the store at each scrape. A read that fails is logged and its series left out of
 * that scrape (the rest of it is answered): a scrape never fails for one value.
 */
class ScrapedGauge extends Gauge {
  constructor(
    configuration: GaugeConfiguration<string>,
    private readonly read: () => number | undefined | Promise<number | undefined>,
    private readonly log: FastifyBaseLogger,
  ) {
    super(configuration);
    this.metricName = configuration.name;
  }

  private readonly metricName: string;

  override async get(): Promise<MetricObjectWithValues<MetricValue<string>>> {
    let value: number | undefined;
    try {
      value = await this.read();
    } catch (error) {
      this.log.warn({ err: error, metric: this.metricName }, 'metric could not be read: left out of this scrape');
    }
    if (value === undefined) return { ...(await super.get()), values: [] };
    this.set(value);
    return super.get();
  }
}

interface RequestCounting {
  /** Counts one received request in flight until its response closes (answered or not). */
  received(response: http.ServerResponse): void;
}

/** One method, route pattern and status: how many answers, and their durations by bucket (not cumulated). */
interface AnswerSeries {
  labels: { method: string; route: string; status: string };
  count: number;
  sum: number;
  buckets: number[];
}

/** What the registry reads of a metric: its name and, at each scrape, its values. */
type ScrapedMetric = Parameters<Registry['registerMetric']>[0];

/**
 * The request counter and duration histogram, counted in plain numbers: a request costs one map
 * lookup and a few additions. prom-client's labelled children hash their labels on every call; here
 * the registry is handed the values at each scrape, in the text format its own counter and histogram
 * write (docs/operations.md "Metrics").
 */
class AnswerCounts {
  private readonly series = new Map<string, AnswerSeries>();

  record(method: string, route: string, status: number, seconds: number): void {
    const key = `${method} ${status} ${route}`;
    let series = this.series.get(key);
    if (series === undefined) {
      series = { labels: { method, route, status: String(status) }, count: 0, sum: 0, buckets: DURATION_BUCKETS.map(() => 0) };
      this.series.set(key, series);
    }
    series.count++;
    series.sum += seconds;
    const bucket = DURATION_BUCKETS.findIndex((bound) => seconds <= bound);
    if (bucket >= 0) series.buckets[bucket]++;
  }

  counter(name: string, help: string): ScrapedMetric {
    const get = async () => ({
      name,
      help,
      type: 'counter',
      aggregator: 'sum',
      values: [...this.series.values()].map((series) => ({ labels: series.labels, value: series.count })),
    });
    return { name, help, get, reset: () => this.series.clear() } as unknown as ScrapedMetric;
  }

  histogram(name: string, help: string): ScrapedMetric {
    const get = async () => ({
      name,
      help,
      type: 'histogram',
      aggregator: 'sum',
      values: [...this.series.values()].flatMap((series) => {
        let below = 0;
        const buckets = DURATION_BUCKETS.map((bound, i) => {
          below += series.buckets[i];
          return { labels: { ...series.labels, le: bound }, value: below, metricName: `${name}_bucket` };
        });
        return [
          ...buckets,
          { labels: { ...series.labels, le: '+Inf' }, value: series.count, metricName: `${name}_bucket` },
          { labels: series.labels, value: series.sum, metricName: `${name}_sum` },
          { labels: series.labels, value: series.count, metricName: `${name}_count` },
        ];
      }),
    });
    return { name, help, get, reset: () => this.series.clear() } as unknown as ScrapedMetric;
  }
}

function buildMetrics(app: FastifyInstance): { metrics: Metrics } & RequestCounting {
  const registry = new Registry();
  const registers = [registry];
  const log = app.log;
  collectDefaultMetrics({ register: registry });
  // Gauges named like counters, which `promtool check metrics` refuses; nodejs_active_handles,
  // nodejs_active_requests and nodejs_active_resources give the same counts by type.
  for (const name of ['nodejs_active_handles_total', 'nodejs_active_requests_total', 'nodejs_active_resources_total']) registry.removeSingleMetric(name);

  const answers = new AnswerCounts();
  registry.registerMetric(answers.counter('timetrack_http_requests_total', 'HTTP requests answered, by method, route pattern and status.'));
  registry.registerMetric(
    answers.histogram('timetrack_http_request_duration_seconds', 'Time from a request arriving to its answer being sent, by method, route pattern and status.'),
  );
  let inFlight = 0;
  new Gauge({
    name: 'timetrack_http_requests_in_flight',
    help: 'Requests received and not yet answered.',
    registers,
    collect() {
      this.set(inFlight);
    },
  });
  const rateLimited = new Counter({ name: 'timetrack_rate_limited_total', help: 'Requests answered 429 (a rate limit, a sign-in lockout or a listing bound), by route pattern.', labelNames: ['route'], registers });
  const signInFailures = new Counter({ name: 'timetrack_sign_in_failures_total', help: 'Sign-ins refused for a wrong credential (401), by way of signing in.', labelNames: ['method'], registers });
  for (const method of new Set(Object.values(SIGN_IN_ROUTES))) signInFailures.inc({ method }, 0);

  const store = app.store;
  new ScrapedGauge({ name: 'timetrack_db_pool_connections_in_use', help: 'PostgreSQL connections of this instance taken by a query or transaction (0 on SQLite).', registers }, () => store.poolStats().inUse, log);
  new ScrapedGauge({ name: 'timetrack_db_pool_waiting', help: 'Queries of this instance waiting for a PostgreSQL connection (0 on SQLite).', registers }, () => store.poolStats().waiting, log);
  new ScrapedGauge({ name: 'timetrack_sqlite_wal_bytes', help: 'Size of the SQLite write-ahead log file in bytes (absent on PostgreSQL and in memory).', registers }, () => store.walBytes(), log);
  new ScrapedGauge(
    { name: 'timetrack_change_feed_lag_seconds', help: 'Age of the oldest change-feed event not yet queued for an enabled webhook (0 when none).', registers },
    async () => ageInSeconds(await oldestUnqueuedChange(app.db), Date.now()),
    log,
  );
  new ScrapedGauge(
    { name: 'timetrack_webhook_queue_age_seconds', help: 'Age of the oldest pending delivery of an enabled webhook (0 when none).', registers },
    async () => ageInSeconds(await oldestPendingDelivery(app.db), Date.now()),
    log,
  );
  new ScrapedGauge({ name: 'timetrack_outbox_pending', help: 'Mail in the outbox not yet sent.', registers }, () => unsentMailCount(app.db), log);
  new Gauge({
    name: 'timetrack_imports_running',
    help: 'Imports running in this instance.',
    registers,
    collect() {
      this.set(runningImportsOf(app.server));
    },
  });

  const webhookOutcomes: Readonly<WebhookPassResult>[] = [];
  const counted = { succeeded: 0, failed: 0, gave_up: 0 };
  new Counter({
    name: 'timetrack_webhook_deliveries_total',
    help: "Webhook delivery attempts of this instance's worker, by outcome: succeeded, failed (to be retried), gave_up (the retry window ended).",
    labelNames: ['outcome'],
    registers,
    collect() {
      const totals = { succeeded: 0, failed: 0, gave_up: 0 };
      for (const outcomes of webhookOutcomes) {
        totals.succeeded += outcomes.succeeded;
        totals.failed += outcomes.failed - outcomes.gaveUp;
        totals.gave_up += outcomes.gaveUp;
      }
      for (const outcome of ['succeeded', 'failed', 'gave_up'] as const) {
        this.inc({ outcome }, totals[outcome] - counted[outcome]);
        counted[outcome] = totals[outcome];
      }
    },
  });

  const leaveFlight = () => {
    inFlight--;
  };
  const received = (response: http.ServerResponse) => {
    inFlight++;
    // 'close' comes once: `on` spares the wrapper `once` would make per request.
    response.on('close', leaveFlight);
  };
  const answered = (pattern: string | undefined, request: FastifyRequest, reply: FastifyReply) => {
    const status = reply.statusCode;
    const route = pattern ?? UNMATCHED_ROUTE;
    answers.record(request.method, route, status, reply.elapsedTime / 1000);
    if (status === 429) rateLimited.inc({ route });
    else if (status === 401 && SIGN_IN_ROUTES[route] !== undefined) signInFailures.inc({ method: SIGN_IN_ROUTES[route] });
  };

  let listener: http.Server | undefined;
  const scrape = async () => ({ body: await registry.metrics(), contentType: registry.contentType });
  const metrics: Metrics = {
    registry,
    scrape,
    countWebhookDeliveries: (outcomes) => void webhookOutcomes.push(outcomes),
    answered,
    listen: () =>
      new Promise<AddressInfo>((resolve, reject) => {
        const { port, host } = app.config.metrics;
        const server = http.createServer((request, response) => {
          const path = (request.url ?? '').split('?')[0];
          if (request.method !== 'GET' || path !== '/metrics') {
            response.writeHead(404, { 'content-type': 'text/plain; charset=utf-8' }).end('Not found: this port answers only GET /metrics.\n');
            return;
          }
          scrape().then(
            ({ body, contentType }) => response.writeHead(200, { 'content-type': contentType }).end(body),
            (error: unknown) => {
              log.error({ err: error }, 'metrics scrape failed');
              response.writeHead(503, { 'content-type': 'text/plain; charset=utf-8' }).end('The metrics could not be read.\n');
            },
          );
        });
        server.once('error', (error) => reject(new Error(`the metrics listener could not listen on ${host}:${port}: ${error.message}`)));
        server.listen(port ?? 0, host, () => {
          listener = server;
          resolve(server.address() as AddressInfo);
        });
      }),
  };
  app.addHook('onClose', async () => {
    if (!listener) return;
    const server = listener;
    listener = undefined;
    // A scraper keeps its connection open between scrapes: it must not hold the shutdown.
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  });
  return { metrics, received };
}

/** Whether two secrets are the same, in a time that does not tell how much of them matches. */
function sameSecret(given: string, expected: string): boolean {
  return timingSafeEqual(Buffer.from(hashToken(given), 'hex'), Buffer.from(hashToken(expected), 'hex'));
}

/**
 * Prometheus metrics from prom-client (docs/operations.md "Metrics"), on when METRICS_PORT or
 * METRICS_PUBLIC is set: each request is counted by its method, route pattern and status (never its
 * path, an id or a workspace), with its duration. GET /metrics is on the public port only when
 * METRICS_PUBLIC=true, and then only with `Authorization: Bearer <METRICS_TOKEN>`; the server starts
 * the separate listener of METRICS_PORT (Metrics.listen).
 */
export const metrics = fp(async (app: FastifyInstance) => {
  const settings = app.config.metrics;
  if (settings.port === undefined && !settings.public) {
    app.decorate('metrics', undefined);
    return;
  }
  const built = buildMetrics(app);
  app.decorate('metrics', built.metrics);
  // In flight: from the server's request event to the response's close, which comes whether the answer
  // was sent or its client went first (requests made with inject, in tests, never reach the server).
  app.server.on('request', (_request: http.IncomingMessage, response: http.ServerResponse) => built.received(response));
  // Answered requests are counted by the access log's onResponse hook (Metrics.answered).
  if (settings.public) {
    const token = settings.token!;
    app.get('/metrics', { schema: { hide: true } }, async (request, reply) => {
      const given = BEARER.exec(request.headers.authorization ?? '')?.[1];
      if (given === undefined || !sameSecret(given, token)) throw unauthorized('GET /metrics needs the bearer token METRICS_TOKEN.');
      const { body, contentType } = await built.metrics.scrape();
      return reply.type(contentType).send(body);
    });
  }
});
