import type { FastifyInstance } from 'fastify';
import type { Transporter } from 'nodemailer';
import type { Config } from '../../config.js';
import { claimMessage, dueMessageIds, expireMessages, markFailed, markSent, takeUnreportedMessages } from './repository.js';

/** How often the worker looks for unsent messages. */
export const POLL_INTERVAL_MS = 5_000;
/** A claimed message is held this long; longer than any attempt can take (see the SMTP timeouts below). */
const CLAIM_MS = 5 * 60_000;
/** After this many failed attempts a message stays in the outbox unsent, with its last error. */
export const MAX_ATTEMPTS = 10;
const BATCH = 50;
/** Timeouts of one SMTP attempt, unless SMTP_URL sets its own (nodemailer URL query parameters). */
const SMTP_TIMEOUTS = { connectionTimeout: '20000', greetingTimeout: '20000', socketTimeout: '60000' };

/** Wait before attempt n+1 after n failures: 1, 2, 4, … minutes, at most 6 hours. */
export function retryDelayMs(failures: number): number {
  return Math.min(60_000 * 2 ** Math.max(0, failures - 1), 6 * 60 * 60_000);
}

export interface DeliveryResult {
  sent: number;
  failed: number;
  /** Without SMTP: messages reported in the log and kept in the outbox. */
  kept: number;
}

export interface DeliveryOptions {
  /** The instant to act at (tests move it forward past a retry backoff). Defaults to now. */
  now?: Date;
}

const transporters = new WeakMap<Config, Transporter>();

/** nodemailer is loaded with the first transporter: a deployment without SMTP_URL never holds it. */
async function transporterFor(config: Config): Promise<Transporter> {
  let transporter = transporters.get(config);
  if (!transporter) {
    const { default: nodemailer } = await import('nodemailer');
    const url = new URL(config.smtpUrl!);
    for (const [key, value] of Object.entries(SMTP_TIMEOUTS)) {
      if (!url.searchParams.has(key)) url.searchParams.set(key, value);
    }
    transporter = transporters.get(config) ?? nodemailer.createTransport(url.toString(), { from: config.mailFrom });
    transporters.set(config, transporter);
  }
  return transporter;
}

function closeTransporter(config: Config): void {
  transporters.get(config)?.close();
  transporters.delete(config);
}

/**
 * One delivery pass, the one the worker runs every few seconds (tests call it to deliver now).
 * With SMTP: each due message is claimed (never by two senders at once), sent with nodemailer and
 * marked sent; a failure is recorded and retried later with a growing backoff. Without SMTP:
 * messages stay unsent in the outbox and each is logged once (kind and recipient, never its body,
 * which may carry a sign-in link).
 */
export async function deliverPending(app: FastifyInstance, options: DeliveryOptions = {}): Promise<DeliveryResult> {
  const result: DeliveryResult = { sent: 0, failed: 0, kept: 0 };
  const at = options.now ?? new Date();
  // A message whose one-time link has expired loses its text first: it is neither kept nor sent.
  await expireMessages(app.db, at.toISOString());
  if (!app.config.smtpUrl) {
    for (const message of await takeUnreportedMessages(app.db, BATCH)) {
      app.log.info(
        { messageId: message.id, kind: message.kind, to: message.to_address, organizationId: message.organization_id },
        'outgoing message kept in the outbox: SMTP_URL is not set',
      );
      result.kept++;
    }
    return result;
  }
  const now = at.toISOString();
  const transporter = await transporterFor(app.config);
  for (const id of await dueMessageIds(app.db, now, MAX_ATTEMPTS, BATCH)) {
    const message = await claimMessage(app.db, id, now, new Date(at.getTime() + CLAIM_MS).toISOString());
    if (!message) continue;
    try {
      await transporter.sendMail({ to: message.to_address, subject: message.subject, text: message.body });
      await markSent(app.db, id, new Date().toISOString());
      app.log.info({ messageId: id, kind: message.kind, to: message.to_address }, 'outgoing message sent');
      result.sent++;
    } catch (error) {
      const failures = message.attempts + 1;
      const reason = (error instanceof Error ? error.message : String(error)).slice(0, 500);
      await markFailed(app.db, id, reason, new Date(at.getTime() + retryDelayMs(failures)).toISOString());
      app.log.warn(
        { messageId: id, kind: message.kind, to: message.to_address, attempts: failures, reason },
        failures >= MAX_ATTEMPTS ? 'outgoing message failed for the last time' : 'outgoing message failed; will retry',
      );
      result.failed++;
    }
  }
  return result;
}

/**
 * Runs deliverPending every POLL_INTERVAL_MS from the moment the app is ready until it closes;
 * closing waits for a pass in progress, so the store is never closed under it.
 */
export function startMailWorker(app: FastifyInstance): { stop(): Promise<void> } {
  let running: Promise<unknown> | null = null;
  const tick = () => {
    if (running) return;
    running = deliverPending(app)
      .catch((error: unknown) => app.log.error({ err: error }, 'mail delivery pass failed'))
      .finally(() => {
        running = null;
      });
  };
  const timer = setInterval(tick, POLL_INTERVAL_MS);
  timer.unref();
  return {
    async stop() {
      clearInterval(timer);
      await running;
      if (app.config.smtpUrl) closeTransporter(app.config);
    },
  };
}
