import type { FastifyInstance } from 'fastify';
import { wayToGive } from '../../db/giving-way.js';
import { pruneDeliveries } from './delivery.js';
import { DeliveryPool } from './pool.js';
import type { WebhookPassResult } from './run.js';
import { queueFeedEvents } from './queue.js';
import { systemResolver } from './sender.js';

const PRUNE_EVERY_MS = 60 * 60_000;

/**
 * The share of the instance's time each slot of the worker takes while it serves requests:
 * deliveries are background work, and a write load that keeps the instance busy is slowed by about
 * this much (docs/webhooks.md "Under load").
 */
export const DELIVERY_SHARE_WHEN_BUSY = 0.05;

/** What the worker did, for tests: runs after which their slot gave way to requests before it was refilled. */
export const workerCounters = { passesBeforeGivingWay: 0 };

/**
 * The server's worker: one pool of WEBHOOK_CONCURRENCY slots (pool.ts). A round queues the events
 * committed since the last one and fills the free slots; one runs every WEBHOOK_WORKER_INTERVAL_MS
 * and as soon as a run ends, so a run's slot is refilled at once (after giving way, while the
 * instance serves requests, wayToGive) and no run waits for another. Stopping waits for the runs
 * in flight.
 */
export function startWebhookWorker(app: FastifyInstance): { stop(): Promise<void>; readonly outcomes: Readonly<WebhookPassResult> } {
  let stopped = false;
  let prunedAt = 0;
  let round: Promise<void> | null = null;
  let roundAgain = false;
  const givingWay = new Set<{ timer: NodeJS.Timeout; release: () => void }>();

  const pool: DeliveryPool = new DeliveryPool(app, {
    clock: () => new Date(),
    resolver: systemResolver,
    onRunEnded: (time, release) => {
      const wait = stopped ? 0 : wayToGive(time, DELIVERY_SHARE_WHEN_BUSY);
      if (wait === 0) {
        release();
        return void startRound();
      }
      workerCounters.passesBeforeGivingWay++;
      const pause = {
        release,
        timer: setTimeout(() => {
          givingWay.delete(pause);
          release();
          startRound();
        }, wait),
      };
      givingWay.add(pause);
    },
  });

  const oneRound = async () => {
    if (Date.now() - prunedAt > PRUNE_EVERY_MS) {
      prunedAt = Date.now();
      await pruneDeliveries(app);
    }
    for (const lapse of await queueFeedEvents(app.db, new Date().toISOString())) {
      app.log.warn(lapse, 'webhook missed change-feed events: pruned before they were queued (docs/webhooks.md)');
    }
    if (!stopped) await pool.fill();
  };
  // One round at a time; one asked for meanwhile follows it.
  function startRound(): void {
    if (stopped) return;
    if (round) {
      roundAgain = true;
      return;
    }
    round = (async () => {
      do {
        roundAgain = false;
        await oneRound().catch((error: unknown) => app.log.error({ err: error }, 'webhook delivery round failed'));
      } while (roundAgain && !stopped);
    })().finally(() => {
      round = null;
    });
  }

  const timer = setInterval(startRound, app.config.webhooks.workerIntervalMs);
  timer.unref();
  return {
    /** The outcomes of the deliveries this worker attempted since it started (for the metrics). */
    outcomes: pool.result,
    async stop() {
      stopped = true;
      clearInterval(timer);
      for (const pause of givingWay) {
        clearTimeout(pause.timer);
        pause.release();
      }
      givingWay.clear();
      await round;
      await pool.idle();
    },
  };
}
