import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { ApiError } from '../domain/errors.js';

declare module 'fastify' {
  interface FastifyInstance {
    /**
     * Set when shutdown starts (src/server.ts): /readyz answers 503 from then on while every other route
     * still serves, so a balancer takes the instance out before its listener closes (docs/operations.md,
     * "Readiness and shutdown").
     */
    draining: boolean;
  }
}

/** Liveness and readiness, on any host and without a token. */
export const health = fp(async (app: FastifyInstance) => {
  app.decorate('draining', false);
  app.get('/healthz', { schema: { hide: true } }, async () => ({ status: 'ok' }));
  app.get('/readyz', { schema: { hide: true } }, async (request) => {
    if (app.draining) {
      throw new ApiError('busy', 'This instance is shutting down: send requests to another instance.', undefined, { 'retry-after': '1' });
    }
    try {
      await app.store.ping();
    } catch (error) {
      request.log.error({ err: error }, 'database is not answering');
      throw new ApiError('internal', 'The database is not answering.');
    }
    return { status: 'ready' };
  });
});
