import type { FastifyInstance } from 'fastify';
import { pruneChanges } from './service.js';

/** How often expired events are looked for: a tenth of the retention, at least a second, at most an hour. */
export const pruneIntervalMs = (retentionMs: number): number => Math.min(3_600_000, Math.max(1_000, Math.floor(retentionMs / 10)));

/**
 * Prunes the events older than the retention (CHANGE_RETENTION_DAYS) now and then, from the moment
 * the app is ready until it closes, the way the mail worker runs its passes; closing waits for a
 * pass in progress. Several instances may prune at once: each deletes what is left.
 */
export function startChangePruning(app: FastifyInstance): { stop(): Promise<void> } {
  let running: Promise<unknown> | null = null;
  const tick = () => {
    if (running) return;
    running = pruneChanges(app.db, app.config.changeRetentionMs)
      .then((pruned) => {
        if (pruned > 0) app.log.info({ pruned }, 'expired change-feed events pruned');
      })
      .catch((error: unknown) => app.log.error({ err: error }, 'change-feed pruning failed'))
      .finally(() => {
        running = null;
      });
  };
  const timer = setInterval(tick, pruneIntervalMs(app.config.changeRetentionMs));
  timer.unref();
  return {
    async stop() {
      clearInterval(timer);
      await running;
    },
  };
}
