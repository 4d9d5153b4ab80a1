import type { FastifyInstance } from 'fastify';
import { pruneExpiredSignInRows } from './expired-rows-service.js';

/** How often the expired sign-in rows are looked for: half a single sign-on attempt's life. */
export const EXPIRED_ROWS_PRUNE_INTERVAL_MS = 5 * 60 * 1000;

/**
 * Prunes the expired sign-in rows now and then, from the moment the app is ready until it closes,
 * as the change feed prunes its events; closing waits for a pass in progress. Several instances may
 * prune at once: each deletes what is left.
 */
export function startExpiredRowsPruning(app: FastifyInstance): { stop(): Promise<void> } {
  let running: Promise<unknown> | null = null;
  const tick = () => {
    if (running) return;
    running = pruneExpiredSignInRows(app.db)
      .then((pruned) => {
        if (Object.values(pruned).some((count) => count > 0)) app.log.info({ pruned }, 'expired sign-in rows pruned');
      })
      .catch((error: unknown) => app.log.error({ err: error }, 'pruning expired sign-in rows failed'))
      .finally(() => {
        running = null;
      });
  };
  const timer = setInterval(tick, EXPIRED_ROWS_PRUNE_INTERVAL_MS);
  timer.unref();
  return {
    async stop() {
      clearInterval(timer);
      await running;
    },
  };
}
