import type { FastifyInstance } from 'fastify';
import { randomUUID } from 'node:crypto';
import { timed, type PieceTime } from '../../db/giving-way.js';
import { claimDueDeliveries, type ClaimedDelivery } from './repository.js';
import { DELIVERIES_PER_RUN, slotsPerWorkspace } from './rules.js';
import { deliverRun, type WebhookPassResult } from './run.js';
import type { Resolver } from './sender.js';

export interface PoolOptions {
  /** The instant each claim and attempt acts at. */
  clock: () => Date;
  resolver: Resolver;
  /**
   * Called when a run has ended and recorded its outcomes, with the time it took; its slot is held
   * until `release` is called (the worker gives way to requests first). The run counts as in flight
   * (idle) until what this answers has settled.
   */
  onRunEnded: (time: PieceTime, release: () => void) => Promise<unknown> | void;
}

/**
 * The worker's WEBHOOK_CONCURRENCY slots (docs/webhooks.md "Delivery"): each holds one run, one
 * webhook's batch, from its claim until it is released, so that a receiver that never answers holds
 * its own slot only. A workspace holds at most slotsPerWorkspace of them at once.
 */
export class DeliveryPool {
  readonly result: WebhookPassResult = { succeeded: 0, failed: 0, gaveUp: 0 };
  private readonly slots: number;
  private readonly share: number;
  private readonly heldBy = new Map<string, number>();
  private held = 0;
  private readonly running = new Set<Promise<unknown>>();
  /** Fills one after another, so that two never count the same free slot. */
  private filling: Promise<number> = Promise.resolve(0);

  constructor(
    private readonly app: FastifyInstance,
    private readonly options: PoolOptions,
  ) {
    this.slots = app.config.webhooks.concurrency;
    this.share = slotsPerWorkspace(this.slots);
  }

  /** Claims runs for the free slots (each workspace up to its share) and starts them; resolves to how many it started. */
  fill(): Promise<number> {
    const next = this.filling.then(() => this.claimIntoFreeSlots());
    this.filling = next.catch(() => 0);
    return next;
  }

  /** Resolves once no run is in flight, runs started meanwhile included. */
  async idle(): Promise<void> {
    while (this.running.size > 0) await Promise.all([...this.running]);
  }

  private async claimIntoFreeSlots(): Promise<number> {
    let started = 0;
    while (this.held < this.slots) {
      const now = this.options.clock();
      const runs = await claimDueDeliveries(this.app.db, {
        now: now.toISOString(),
        until: new Date(now.getTime() + this.app.config.webhooks.leaseMs).toISOString(),
        claim: randomUUID(),
        limit: this.slots - this.held,
        runLength: DELIVERIES_PER_RUN,
        skippedWorkspaces: [...this.heldBy].filter(([, count]) => count >= this.share).map(([workspace]) => workspace),
        roomOf: (workspace) => this.share - (this.heldBy.get(workspace) ?? 0),
      });
      if (runs.length === 0) break;
      for (const run of runs) this.start(run);
      started += runs.length;
    }
    return started;
  }

  private start(run: ClaimedDelivery[]): void {
    const workspace = run[0]!.organizationId;
    this.held++;
    this.heldBy.set(workspace, (this.heldBy.get(workspace) ?? 0) + 1);
    let released = false;
    const release = () => {
      if (released) return;
      released = true;
      this.held--;
      const left = this.heldBy.get(workspace)! - 1;
      if (left === 0) this.heldBy.delete(workspace);
      else this.heldBy.set(workspace, left);
    };
    const delivered = timed(() =>
      deliverRun(this.app, run, this.options.clock, this.options.resolver, this.result).catch((error: unknown) => {
        // E.g. the webhook was deleted meanwhile; otherwise its leases run out and it is tried again.
        this.app.log.warn({ err: error, webhookId: run[0]!.webhookId, deliveryId: run[0]!.id }, 'webhook deliveries not recorded');
      }),
    )
      .then(({ time }) => this.options.onRunEnded(time, release))
      .catch((error: unknown) => {
        release();
        this.app.log.error({ err: error }, 'webhook slot not refilled');
      })
      .finally(() => this.running.delete(delivered));
    this.running.add(delivered);
  }
}
