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
  type ClaimedDelivery,
} from './repository.js';
import { DELIVERY_RETENTION_MS, nextAttemptAfterFailure } from './rules.js';
import { sendOnce, systemResolver, type Resolver, type SendOptions } from './sender.js';
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
 * One pass: claims the due deliveries (the first unfinished one of each enabled webhook, so one
 * webhook's deliveries go in order), makes one attempt of each at once, and records the outcomes.
 * The worker runs it every WEBHOOK_WORKER_INTERVAL_MS; tests call it to deliver now.
 */
export async function deliverWebhooks(app: FastifyInstance, options: WebhookPassOptions = {}): Promise<WebhookPassResult> {
  const settings = app.config.webhooks;
  const now = options.now ?? new Date();
  const claim = randomUUID();
  const until = new Date(now.getTime() + settings.leaseMs).toISOString();
  const claimed = await claimDueDeliveries(app.db, now.toISOString(), until, settings.concurrency, claim);
  const result: WebhookPassResult = { succeeded: 0, failed: 0, gaveUp: 0 };
  await Promise.all(
    claimed.map((delivery) =>
      attempt(app, delivery, now, options.resolver ?? systemResolver, result).catch((error: unknown) => {
        // E.g. the webhook was deleted meanwhile; otherwise its lease runs out and it is tried again.
        app.log.warn({ err: error, webhookId: delivery.webhookId, deliveryId: delivery.id }, 'webhook delivery not recorded');
      }),
    ),
  );
  return result;
}

const UNSEALABLE = { statusCode: null, durationMs: 0, error: 'the secret cannot be unsealed: the server secret (SECRET_KEY) changed; rotate the secret' };

function signedRequest(delivery: ClaimedDelivery, secrets: string[], timestamp: number, settings: WebhookConfig, resolver: Resolver): SendOptions {
  return {
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

async function attempt(app: FastifyInstance, delivery: ClaimedDelivery, now: Date, resolver: Resolver, result: WebhookPassResult): Promise<void> {
  const timestamp = Math.floor(now.getTime() / 1000);
  const secrets = signingSecrets(
    app.config,
    { current: delivery.secretSealed, previous: delivery.previousSecretSealed, previousExpiresAt: delivery.previousSecretExpiresAt },
    now,
  );
  const outcome = secrets.length === 0 ? UNSEALABLE : await sendOnce(signedRequest(delivery, secrets, timestamp, app.config.webhooks, resolver));
  const at = now.toISOString();
  const firstAttemptAt = delivery.firstAttemptAt ?? at;
  const next = outcome.error === null ? null : nextAttemptAfterFailure(new Date(firstAttemptAt), now, delivery.attempts + 1);
  // The attempt and what follows from it are one transaction: one commit a delivery, not two.
  const gaveUp = await app.db.transaction().execute(async (trx) => {
    await insertAttempt(trx, delivery.id, { at, ...outcome });
    if (outcome.error === null) {
      await finishAttempt(trx, delivery.id, delivery.claim, { status: 'succeeded', firstAttemptAt, nextAttemptAt: null, finishedAt: at });
      return false;
    }
    if (next !== null) {
      await finishAttempt(trx, delivery.id, delivery.claim, { status: 'pending', firstAttemptAt, nextAttemptAt: next.toISOString(), finishedAt: null });
      return false;
    }
    await giveUp(trx, delivery, outcome.error, firstAttemptAt, at);
    return true;
  });
  if (outcome.error === null) {
    result.succeeded++;
    return;
  }
  result.failed++;
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
 * Runs deliverWebhooks every WEBHOOK_WORKER_INTERVAL_MS (and again at once while a pass found
 * work) until stopped; stopping waits for a pass in progress.
 */
export function startWebhookWorker(app: FastifyInstance): { stop(): Promise<void> } {
  let running: Promise<unknown> | null = null;
  let stopped = false;
  let prunedAt = 0;
  const pass = async () => {
    if (Date.now() - prunedAt > PRUNE_EVERY_MS) {
      prunedAt = Date.now();
      await pruneDeliveries(app);
    }
    return deliverWebhooks(app);
  };
  const tick = () => {
    if (running || stopped) return;
    running = pass()
      .then((result) => {
        if (result.succeeded + result.failed > 0) setImmediate(tick);
      })
      .catch((error: unknown) => app.log.error({ err: error }, 'webhook delivery pass failed'))
      .finally(() => {
        running = null;
      });
  };
  const timer = setInterval(tick, app.config.webhooks.workerIntervalMs);
  timer.unref();
  return {
    async stop() {
      stopped = true;
      clearInterval(timer);
      await running;
    },
  };
}
