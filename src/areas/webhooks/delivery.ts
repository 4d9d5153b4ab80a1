import type { FastifyInstance } from 'fastify';
import { randomUUID } from 'node:crypto';
import type { WebhookConfig } from '../../config.js';
import type { Trx } from '../../db/database.js';
import { enqueueMessage } from '../mail/index.js';
import {
  administratorsOf,
  claimDueDeliveries,
  disableWebhook,
  finishAttempt,
  insertAttempt,
  pruneFinishedDeliveries,
  releaseDeliveries,
  type ClaimedDelivery,
} from './repository.js';
import { timed, wayToGive } from '../../db/giving-way.js';
import { queueFeedEvents } from './queue.js';
import { DELIVERIES_PER_RUN, DELIVERY_RETENTION_MS, nextAttemptAfterFailure } from './rules.js';
import { runConnection, sendOnce, systemResolver, type Resolver, type SendOptions } from './sender.js';
import { signingSecrets } from './service.js';
import { signatureHeader } from './signature.js';

export interface WebhookPassOptions {
  /** The instant to act at (tests move it past a backoff or the retry window). Defaults to now. */
  now?: Date;
  /** Host name resolution (tests play DNS rebinding). Defaults to the system's. */
  resolver?: Resolver;
}

export interface WebhookPassResult {
  succeeded: number;
  failed: number;
  /** Deliveries that gave up this pass (their webhooks disabled). */
  gaveUp: number;
}

/**
 * One pass: queues the deliveries of the events committed since the last pass (queue.ts), then
 * claims the due deliveries of up to WEBHOOK_CONCURRENCY webhooks (each webhook's first unfinished
 * one and up to DELIVERIES_PER_RUN - 1 after it), delivers the webhooks' runs at once, each run one
 * delivery after another, and records each run's outcomes in one transaction.
 * The worker runs it every WEBHOOK_WORKER_INTERVAL_MS; tests call it to deliver now.
 */
export async function deliverWebhooks(app: FastifyInstance, options: WebhookPassOptions = {}): Promise<WebhookPassResult> {
  const settings = app.config.webhooks;
  const now = options.now ?? new Date();
  const claim = randomUUID();
  const until = new Date(now.getTime() + settings.leaseMs).toISOString();
  for (const lapse of await queueFeedEvents(app.db, now.toISOString())) {
    app.log.warn(lapse, 'webhook missed change-feed events: pruned before they were queued (docs/webhooks.md)');
  }
  const runs = await claimDueDeliveries(app.db, now.toISOString(), until, settings.concurrency, claim, DELIVERIES_PER_RUN);
  const result: WebhookPassResult = { succeeded: 0, failed: 0, gaveUp: 0 };
  const clock = options.now ? () => options.now! : () => new Date();
  await Promise.all(
    runs.map((run) =>
      deliverRun(app, run, clock, options.resolver ?? systemResolver, result).catch((error: unknown) => {
        // E.g. the webhook was deleted meanwhile; otherwise its leases run out and it is tried again.
        app.log.warn({ err: error, webhookId: run[0]!.webhookId, deliveryId: run[0]!.id }, 'webhook deliveries not recorded');
      }),
    ),
  );
  return result;
}

const UNSEALABLE = { statusCode: null, durationMs: 0, error: 'the secret cannot be unsealed: the server secret (SECRET_KEY) changed; rotate the secret' };

function signedRequest(
  delivery: ClaimedDelivery,
  secrets: string[],
  timestamp: number,
  settings: WebhookConfig,
  resolver: Resolver,
  agent: SendOptions['agent'],
): SendOptions {
  return {
    agent,
    url: delivery.url,
    body: delivery.body,
    headers: {
      'content-type': 'application/json',
      'user-agent': 'timetrack-webhooks/1',
      'timetrack-event-id': delivery.eventId,
      'timetrack-event-type': delivery.eventType,
      'timetrack-delivery-id': delivery.id,
      'timetrack-signature': signatureHeader(secrets, timestamp, delivery.body),
    },
    timeoutMs: settings.timeoutMs,
    allowPrivate: settings.allowPrivate,
    resolver,
  };
}

interface Attempted {
  delivery: ClaimedDelivery;
  at: Date;
  outcome: { statusCode: number | null; durationMs: number; error: string | null };
}

/**
 * Delivers a webhook's run one delivery after another, in order, until one fails (the rest wait
 * behind its retry) or the lease could end before another attempt's timeout; then records every
 * attempt and outcome, and gives back what was not attempted, in one transaction.
 */
async function deliverRun(app: FastifyInstance, run: ClaimedDelivery[], clock: () => Date, resolver: Resolver, result: WebhookPassResult): Promise<void> {
  const settings = app.config.webhooks;
  const started = Date.now();
  const attempted: Attempted[] = [];
  const connection = runConnection(run[0]!.url);
  try {
    for (const delivery of run) {
      if (attempted.length > 0 && Date.now() - started + settings.timeoutMs >= settings.leaseMs) break;
      const at = clock();
      const secrets = signingSecrets(
        app.config,
        { current: delivery.secretSealed, previous: delivery.previousSecretSealed, previousExpiresAt: delivery.previousSecretExpiresAt },
        at,
      );
      const timestamp = Math.floor(at.getTime() / 1000);
      const outcome = secrets.length === 0 ? UNSEALABLE : await sendOnce(signedRequest(delivery, secrets, timestamp, settings, resolver, connection));
      attempted.push({ delivery, at, outcome });
      if (outcome.error !== null) break;
    }
  } finally {
    connection.destroy();
  }
  const unattempted = run.slice(attempted.length).map((delivery) => delivery.id);
  const last = attempted.at(-1)!;
  const firstAttemptAt = last.delivery.firstAttemptAt ?? last.at.toISOString();
  const next = last.outcome.error === null ? null : nextAttemptAfterFailure(new Date(firstAttemptAt), last.at, last.delivery.attempts + 1);
  // The run's attempts and what follows from them are one transaction: one commit a run.
  const gaveUp = await app.db.transaction().execute(async (trx) => {
    for (const { delivery, at, outcome } of attempted) {
      await insertAttempt(trx, delivery.id, { at: at.toISOString(), ...outcome });
      if (outcome.error === null) {
        await finishAttempt(trx, delivery.id, delivery.claim, { status: 'succeeded', firstAttemptAt: delivery.firstAttemptAt ?? at.toISOString(), nextAttemptAt: null, finishedAt: at.toISOString() });
      }
    }
    await releaseDeliveries(trx, unattempted, last.delivery.claim);
    if (last.outcome.error === null) return false;
    if (next !== null) {
      await finishAttempt(trx, last.delivery.id, last.delivery.claim, { status: 'pending', firstAttemptAt, nextAttemptAt: next.toISOString(), finishedAt: null });
      return false;
    }
    await giveUp(trx, last.delivery, last.outcome.error, firstAttemptAt, last.at.toISOString());
    return true;
  });
  result.succeeded += attempted.filter((a) => a.outcome.error === null).length;
  if (last.outcome.error === null) return;
  result.failed++;
  const { delivery, outcome } = last;
  if (gaveUp) {
    result.gaveUp++;
    app.log.warn({ webhookId: delivery.webhookId, deliveryId: delivery.id, error: outcome.error }, 'webhook delivery gave up; webhook disabled');
  } else {
    app.log.warn({ webhookId: delivery.webhookId, deliveryId: delivery.id, error: outcome.error, nextAttemptAt: next?.toISOString() }, 'webhook delivery failed; will retry');
  }
}

/** The retry window is over: the delivery fails, the webhook is disabled and the workspace's administrators are mailed. */
async function giveUp(trx: Trx, delivery: ClaimedDelivery, error: string, firstAttemptAt: string, at: string): Promise<void> {
  const reason = `A delivery failed for 24 hours (last error: ${error}); enable the webhook again once its receiver answers.`;
  if (!(await finishAttempt(trx, delivery.id, delivery.claim, { status: 'failed', firstAttemptAt, nextAttemptAt: null, finishedAt: at }))) return;
  if (!(await disableWebhook(trx, delivery.webhookId, reason, at))) return;
  for (const admin of await administratorsOf(trx, delivery.organizationId)) {
    await enqueueMessage(trx, {
      organizationId: delivery.organizationId,
      to: admin.email,
      kind: 'webhookDisabled',
      subject: 'A webhook of your timetrack workspace was disabled',
      body:
        `Hello${admin.name ? ` ${admin.name}` : ''},\n\n` +
        `timetrack could not deliver an event to the webhook ${delivery.url} for 24 hours and has disabled it.\n` +
        `Last error: ${error}\n\n` +
        `Once the receiver answers again, enable the webhook (PUT /api/webhooks/${delivery.webhookId} with {"enabled": true}); ` +
        `its undelivered events are then delivered, and failed ones can be sent again with the redeliver route.\n`,
    });
  }
}

const PRUNE_EVERY_MS = 60 * 60_000;

/** Deletes the deliveries finished more than DELIVERY_RETENTION_MS before `now`, with their attempts. */
export async function pruneDeliveries(app: FastifyInstance, now = new Date()): Promise<number> {
  return pruneFinishedDeliveries(app.db, new Date(now.getTime() - DELIVERY_RETENTION_MS).toISOString());
}

/**
 * The share of the instance's time the worker takes while it serves requests: deliveries are
 * background work, and a write load that keeps the instance busy is slowed by about this much
 * (docs/webhooks.md "Under load").
 */
export const DELIVERY_SHARE_WHEN_BUSY = 0.05;

/** What the worker did, for tests: passes after which it gave way to requests before the next. */
export const workerCounters = { passesBeforeGivingWay: 0 };

/**
 * Runs deliverWebhooks every WEBHOOK_WORKER_INTERVAL_MS, and again as soon as a pass found work:
 * at once while the instance serves no request, else after giving way to them (wayToGive). Stopping
 * waits for a pass in progress.
 */
export function startWebhookWorker(app: FastifyInstance): { stop(): Promise<void> } {
  let running: Promise<unknown> | null = null;
  let stopped = false;
  let prunedAt = 0;
  let next: NodeJS.Timeout | undefined;
  const pass = async () => {
    if (Date.now() - prunedAt > PRUNE_EVERY_MS) {
      prunedAt = Date.now();
      await pruneDeliveries(app);
    }
    return timed(() => deliverWebhooks(app));
  };
  const tick = () => {
    next = undefined;
    if (running || stopped) return;
    running = pass()
      .then(({ value: result, time }) => {
        if (result.succeeded + result.failed === 0 || stopped) return;
        const wait = wayToGive(time, DELIVERY_SHARE_WHEN_BUSY);
        if (wait === 0) return void setImmediate(tick);
        workerCounters.passesBeforeGivingWay++;
        next = setTimeout(tick, wait);
      })
      .catch((error: unknown) => app.log.error({ err: error }, 'webhook delivery pass failed'))
      .finally(() => {
        running = null;
      });
  };
  // The interval's tick waits out a pass's giving way too.
  const timer = setInterval(() => next === undefined && tick(), app.config.webhooks.workerIntervalMs);
  timer.unref();
  return {
    async stop() {
      stopped = true;
      clearInterval(timer);
      clearTimeout(next);
      await running;
    },
  };
}
