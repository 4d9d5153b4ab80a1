import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
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
