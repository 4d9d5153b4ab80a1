import type { FastifyInstance } from 'fastify';
import type { WebhookConfig } from '../../config.js';
import type { Trx } from '../../db/database.js';
import { enqueueMessage } from '../mail/index.js';
import { administratorsOf, disableWebhook, finishAttempt, insertAttempt, releaseDeliveries, type ClaimedDelivery } from './repository.js';
import { nextAttemptAfterFailure } from './rules.js';
import { runConnection, sendOnce, type Resolver, type SendOptions } from './sender.js';
import { signingSecrets } from './service.js';
import { signatureHeader } from './signature.js';

export interface WebhookPassResult {
  succeeded: number;
  failed: number;
  /** Deliveries that gave up (their webhooks disabled). */
  gaveUp: number;
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
export async function deliverRun(app: FastifyInstance, run: ClaimedDelivery[], clock: () => Date, resolver: Resolver, result: WebhookPassResult): Promise<void> {
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
