import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import pino from 'pino';
import type { Workspace } from '../domain/actor.js';

/**
 * One access line per answered request, at `info` (README, "Logs"): method, route
 * pattern, status, time, workspace, and the request id pino binds to every line. The route is the
 * pattern (`/api/activities/:activityId`), never the URL, so no id, token or query value reaches it.
 * Fastify's own two lines per request (received, completed) are turned off in buildApp.
 */
export const accessLog = fp(async (app: FastifyInstance) => {
  app.addHook('onResponse', (request, reply, done) => {
    const workspace = request.workspace as Workspace | null | undefined;
    request.log.info(
      {
        method: request.method,
        route: request.routeOptions.url ?? null,
        status: reply.statusCode,
        ms: Math.round(reply.elapsedTime * 100) / 100,
        workspace: workspace?.domain ?? null,
      },
      'request',
    );
    done();
  });
});

/** Log lines are handed to the operating system in batches of this many bytes, and at least every LOG_FLUSH_MS. */
const LOG_BATCH_BYTES = 12_288;
const LOG_FLUSH_MS = 250;

/**
 * Standard output as the server's log destination: pino's asynchronous destination, written behind
 * the request in batches (one write per line cost a hand-over to another thread per request; README,
 * "Logs" says what a kill -9 may lose).
 */
export function batchedLogDestination(): ReturnType<typeof pino.destination> {
  return pino.destination({ dest: 1, sync: false, minLength: LOG_BATCH_BYTES, periodicFlush: LOG_FLUSH_MS });
}
