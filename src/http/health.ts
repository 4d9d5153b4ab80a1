import type { FastifyInstance } from 'fastify';
import { ApiError } from '../domain/errors.js';

/** Liveness and readiness, on any host and without a token. */
export async function health(app: FastifyInstance): Promise<void> {
  app.get('/healthz', { schema: { hide: true } }, async () => ({ status: 'ok' }));
  app.get('/readyz', { schema: { hide: true } }, async (request) => {
    try {
      await app.store.ping();
    } catch (error) {
      request.log.error({ err: error }, 'database is not answering');
      throw new ApiError('internal', 'The database is not answering.');
    }
    return { status: 'ready' };
  });
}
