import type { FastifyInstance } from 'fastify';
import { DeliveryPool } from './pool.js';
import { queueFeedEvents } from './queue.js';
import { pruneFinishedDeliveries } from './repository.js';
import { DELIVERY_RETENTION_MS } from './rules.js';
import type { WebhookPassResult } from './run.js';
import { systemResolver, type Resolver } from './sender.js';

export type { WebhookPassResult } from './run.js';

export interface WebhookPassOptions {
  /** The instant to act at (tests move it past a backoff or the retry window). Defaults to now. */
  now?: Date;
  /** Host name resolution (tests play DNS rebinding). Defaults to the system's. */
  resolver?: Resolver;
}

/**
 * One pass, for tests and one-off runs: queues the deliveries of the events committed since the last
 * pass (queue.ts), then delivers what is due through a pool of WEBHOOK_CONCURRENCY slots (pool.ts),
 * each slot refilled as its run ends, until nothing due is left to claim; resolves to the counts
 * once every run it started has ended. The server's worker keeps one pool instead (worker.ts).
 */
export async function deliverWebhooks(app: FastifyInstance, options: WebhookPassOptions = {}): Promise<WebhookPassResult> {
  const now = options.now ?? new Date();
  for (const lapse of await queueFeedEvents(app.db, now.toISOString())) {
    app.log.warn(lapse, 'webhook missed change-feed events: pruned before they were queued (docs/webhooks.md)');
  }
  const pool: DeliveryPool = new DeliveryPool(app, {
    clock: options.now ? () => options.now! : () => new Date(),
    resolver: options.resolver ?? systemResolver,
    onRunEnded: (_time, release) => {
      release();
      return pool.fill();
    },
  });
  await pool.fill();
  await pool.idle();
  return pool.result;
}

/** Deletes the deliveries finished more than DELIVERY_RETENTION_MS before `now`, with their attempts. */
export async function pruneDeliveries(app: FastifyInstance, now = new Date()): Promise<number> {
  return pruneFinishedDeliveries(app.db, new Date(now.getTime() - DELIVERY_RETENTION_MS).toISOString());
}
