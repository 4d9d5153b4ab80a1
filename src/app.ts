import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import Fastify, { LogController, type FastifyInstance } from 'fastify';
import type { DestinationStream } from 'pino';
import { randomUUID } from 'node:crypto';
import { areas } from './areas/index.js';
import { servesHttps, type Config } from './config.js';
import { openStore, type Db, type Store } from './db/database.js';
import { migrateToLatest } from './db/migrate.js';
import { accessLog } from './http/access-log.js';
import { authenticate } from './http/authenticate.js';
import { BODY_LIMIT_BYTES, jsonBodies } from './http/body.js';
import { health } from './http/health.js';
import { hookOf } from './http/hook.js';
import { holdsToken, REDACTED_LOG_PATHS, requestLogFields } from './http/log-redaction.js';
import { metrics } from './http/metrics.js';
import { openapi } from './http/openapi.js';
import { answerClientError, problems, sendProblem, toApiError } from './http/problems.js';
import { decorateBearer } from './http/bearer.js';
import { heavyListings } from './http/heavy-listings.js';
import { rateLimits } from './http/rate-limits.js';
import { rejectConflictingRequestTarget } from './http/request-target.js';
import { trustProxyOption } from './http/trusted-proxies.js';
import { identityCaches, tenancy } from './http/tenancy.js';
import { webApp } from './http/web-app.js';

declare module 'fastify' {
  interface FastifyInstance {
    config: Config;
    store: Store;
    /** The database handle every area queries through. */
    db: Db;
  }
}

export interface AppOptions {
  config: Config;
  /** An open store to use instead of opening config.databaseUrl (the app then closes it all the same). */
  store?: Store;
  /** pino destination for the logs; defaults to stdout. */
  logStream?: DestinationStream;
}

const SAFE_REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;
/** One year, this host only: the bare domain's other subdomains may be sites this service does not serve. */
export const STRICT_TRANSPORT_SECURITY = 'max-age=31536000';

/**
 * The whole service as one Fastify instance: used alike by the server, the CLI and every test.
 * Opens (or takes) the store and applies pending migrations before it answers.
 */
export async function buildApp(options: AppOptions): Promise<FastifyInstance> {
  const { config } = options;
  const app = Fastify({
    logger: {
      level: config.logLevel,
      redact: { paths: REDACTED_LOG_PATHS, censor: '[redacted]' },
      serializers: { req: requestLogFields },
      ...(options.logStream ? { stream: options.logStream } : {}),
    },
    // accessLog writes one line per request instead of Fastify's two.
    logController: new LogController({ disableRequestLogging: true }),
    // A client's X-Request-Id is kept (logged and echoed back) when it is short and plain, and is
    // not shaped like one of our tokens: a token pasted there would otherwise reach the logs.
    genReqId: (request) => {
      const given = request.headers['x-request-id'];
      return typeof given === 'string' && SAFE_REQUEST_ID.test(given) && !holdsToken(given) ? given : randomUUID();
    },
    bodyLimit: BODY_LIMIT_BYTES,
    // TRUST_PROXY: behind trusted proxies request.ip is the client's address from X-Forwarded-For, and every
    // per-address rule counts it; request.protocol is X-Forwarded-Proto (docs/rules.md §1 Behind a proxy).
    trustProxy: trustProxyOption(config.trustProxy),
    // Slow clients: headers within headersTimeoutMs, the whole request within requestTimeoutMs (else 408 and
    // the connection closes), idle keep-alive connections closed after keepAliveTimeoutMs. Node checks the
    // first two every connectionsCheckingInterval (default 30 s, far too coarse for them), so check often.
    requestTimeout: config.requestTimeoutMs,
    connectionTimeout: config.requestTimeoutMs * 2,
    keepAliveTimeout: config.keepAliveTimeoutMs,
    http: { connectionsCheckingInterval: Math.max(50, Math.min(1_000, Math.floor(config.headersTimeoutMs / 4))) },
    // During shutdown, a request that reached an open connection is still served (then the connection closes).
    return503OnClosing: false,
    ajv: { customOptions: { coerceTypes: false, removeAdditional: false, allErrors: false } },
    clientErrorHandler: answerClientError,
    frameworkErrors: (error, request, reply) => {
      reply.header('x-request-id', request.id);
      sendProblem(reply, toApiError(error, request));
    },
  }).withTypeProvider<TypeBoxTypeProvider>();
  app.server.headersTimeout = config.headersTimeoutMs;

  const store = options.store ?? openStore(config.databaseUrl);
  app.decorate('config', config);
  app.decorate('store', store);
  app.decorate('db', store.db as Db);
  app.addHook('onClose', () => store.close());
  try {
    await migrateToLatest(store);
  } catch (error) {
    await app.close();
    throw error;
  }

  const strictTransport = servesHttps(config);
  app.addHook('onRequest', (request, reply, done) => {
    reply.header('x-request-id', request.id);
    // No answer is ever sniffed into another type than the one it declares (docs/web-app.md "Serving").
    reply.header('x-content-type-options', 'nosniff');
    // Served over https (PUBLIC_URL): browsers are told to use nothing else on this host (docs/rules.md §1 Behind a proxy).
    if (strictTransport) reply.header('strict-transport-security', STRICT_TRANSPORT_SECURITY);
    done();
  });
  // Nothing is acknowledged before it is on disk: an answer waits for the flush of the writes before it (Store.durable).
  app.addHook('onSend', (_request, _reply, payload, done) => {
    if (!store.writesPending) return done(null, payload);
    store.durable().then(() => done(null, payload), done);
  });
  await app.register(accessLog);
  await app.register(problems);
  // After problems: its error handler answers the public /metrics' 401.
  await app.register(metrics);
  await app.register(jsonBodies);
  await app.register(openapi);
  for (const area of areas) for (const schema of area.schemas ?? []) app.addSchema(schema);
  await app.register(health);

  decorateBearer(app);
  await app.register(rateLimits);
  await app.register(identityCaches);
  // Before routing: a request to an unknown /api path (answered by the not-found handler, outside the
  // /api scope) counts toward its address's limit like any other.
  app.addHook('onRequest', app.rateLimitHooks.perAddress);
  await app.register(
    async (api) => {
      api.addHook('onRequest', hookOf(rejectConflictingRequestTarget));
      await api.register(tenancy);
      api.addHook('onRequest', app.rateLimitHooks.perToken);
      await api.register(authenticate);
      await api.register(heavyListings);
      for (const area of areas) await api.register(area.routes);
    },
    { prefix: '/api' },
  );
  for (const area of areas) if (area.pages) await app.register(area.pages);
  await app.register(webApp);

  await app.ready();
  return app;
}
