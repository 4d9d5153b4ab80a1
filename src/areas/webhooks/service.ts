import type { Config } from '../../config.js';
import type { Db, Trx } from '../../db/database.js';
import type { Actor } from '../../domain/actor.js';
import { notFound } from '../../domain/errors.js';
import { newId } from '../../lib/ids.js';
import { CHANGE_TYPES } from '../changes/index.js';
import { sealerFor } from '../../lib/sealing.js';
import { nowIso } from '../../lib/time.js';
import {
  deleteWebhook,
  enabledWebhooks,
  findDeliveryRow,
  findWebhookRow,
  insertDelivery,
  insertWebhook,
  listDeliveries,
  listWebhooks,
  toWebhook,
  updateWebhook,
  workspaceOf,
  type WebhookChanges,
} from './repository.js';
import { cleanEventTypes, cleanWebhookUrl, matchesEvent, newSecret, SECRET_GRACE_MS, SECRET_PURPOSE } from './rules.js';
import type { Webhook, WebhookCreate, WebhookDelivery, WebhookEnvelope, WebhookUpdate, WebhookWithSecret } from './schemas.js';

/** Read at call time: the changes area imports this one's face (it writes the outbox), so not at load. */
const knownEventTypes = (): ReadonlySet<string> => new Set(Object.keys(CHANGE_TYPES));

/** How many deliveries GET /webhooks/{id}/deliveries shows. */
export const DELIVERIES_SHOWN = 100;

/** A committed change as the change feed records it, to be delivered to the webhooks that take its type. */
export interface WebhookEvent {
  id: string;
  organizationId: string;
  type: string;
  createdAt: string;
  actorId: string | null;
  data: unknown;
}

async function envelopeOf(trx: Trx, event: WebhookEvent): Promise<string> {
  const envelope: WebhookEnvelope = {
    id: event.id,
    type: event.type,
    createdAt: event.createdAt,
    workspace: await workspaceOf(trx, event.organizationId),
    actorId: event.actorId,
    data: event.data,
  };
  return JSON.stringify(envelope);
}

/**
 * The transactional outbox: in the transaction of the change, one delivery per enabled webhook of
 * the workspace whose events take this type. Nothing is written when none does (one indexed read).
 */
export async function enqueueWebhookDeliveries(trx: Trx, event: WebhookEvent): Promise<number> {
  const targets = (await enabledWebhooks(trx, event.organizationId)).filter((hook) => matchesEvent(JSON.parse(hook.events) as string[], event.type));
  if (targets.length === 0) return 0;
  const body = await envelopeOf(trx, event);
  const now = nowIso();
  for (const target of targets) {
    await insertDelivery(trx, { organizationId: event.organizationId, webhookId: target.id, eventId: event.id, eventType: event.type, body, now });
  }
  return targets.length;
}

/** A test ping: a delivery like any other, of type `ping`, to this webhook only. */
async function enqueuePing(trx: Trx, organizationId: string, webhookId: string, actorId: string | null): Promise<string> {
  const now = nowIso();
  const event: WebhookEvent = { id: newId(), organizationId, type: 'ping', createdAt: now, actorId, data: { webhookId } };
  return insertDelivery(trx, { organizationId, webhookId, eventId: event.id, eventType: 'ping', body: await envelopeOf(trx, event), now });
}

export async function workspaceWebhooks(db: Db, actor: Actor): Promise<Webhook[]> {
  return listWebhooks(db, actor.organizationId);
}

async function existingRow(db: Db, actor: Actor, id: string) {
  const row = await findWebhookRow(db, actor.organizationId, id);
  if (!row) throw notFound('webhook');
  return row;
}

export async function webhook(db: Db, actor: Actor, id: string): Promise<Webhook> {
  return toWebhook(await existingRow(db, actor, id));
}

/** Creates the webhook with a new secret (answered this once) and queues its first ping. */
export async function createWebhook(db: Db, config: Config, actor: Actor, body: WebhookCreate): Promise<WebhookWithSecret> {
  const values = {
    url: cleanWebhookUrl(body.url, config.webhooks.allowPrivate),
    events: cleanEventTypes(body.events, knownEventTypes()),
    enabled: body.enabled ?? true,
    description: body.description?.trim() || null,
  };
  const secret = newSecret();
  const row = await db.transaction().execute(async (trx) => {
    const inserted = await insertWebhook(trx, actor.organizationId, values, sealerFor(config).seal(SECRET_PURPOSE, secret), nowIso());
    await enqueuePing(trx, actor.organizationId, inserted.id, actor.userId);
    return inserted;
  });
  return { ...toWebhook(row), secret };
}

/** A partial update. Enabling clears the reason the service gave for disabling it. */
export async function changeWebhook(db: Db, config: Config, actor: Actor, id: string, body: WebhookUpdate): Promise<Webhook> {
  const changes: WebhookChanges = {
    url: body.url === undefined ? undefined : cleanWebhookUrl(body.url, config.webhooks.allowPrivate),
    events: body.events === undefined ? undefined : cleanEventTypes(body.events, knownEventTypes()),
    enabled: body.enabled,
    description: body.description === undefined ? undefined : body.description?.trim() || null,
    disabledReason: body.enabled === true ? null : undefined,
  };
  return db.transaction().execute(async (trx) => {
    if (!(await updateWebhook(trx, actor.organizationId, id, changes, nowIso()))) throw notFound('webhook');
    return toWebhook((await findWebhookRow(trx, actor.organizationId, id))!);
  });
}

/** Deletes the webhook with its deliveries and their attempts. */
export async function removeWebhook(db: Db, actor: Actor, id: string): Promise<void> {
  if (!(await deleteWebhook(db, actor.organizationId, id))) throw notFound('webhook');
}

/**
 * A new secret, answered this once. The one it replaces keeps signing (a second v1 in the
 * signature) for SECRET_GRACE_MS; a secret already in its grace period is dropped.
 */
export async function rotateWebhookSecret(db: Db, config: Config, actor: Actor, id: string): Promise<WebhookWithSecret> {
  const secret = newSecret();
  const now = new Date();
  return db.transaction().execute(async (trx) => {
    const row = await existingRow(trx, actor, id);
    await updateWebhook(
      trx,
      actor.organizationId,
      id,
      {
        secretSealed: sealerFor(config).seal(SECRET_PURPOSE, secret),
        previousSecretSealed: row.secret_sealed,
        previousSecretExpiresAt: new Date(now.getTime() + SECRET_GRACE_MS).toISOString(),
      },
      now.toISOString(),
    );
    return { ...toWebhook((await findWebhookRow(trx, actor.organizationId, id))!), secret };
  });
}

export async function pingWebhook(db: Db, actor: Actor, id: string): Promise<WebhookDelivery> {
  return db.transaction().execute(async (trx) => {
    await existingRow(trx, actor, id);
    const deliveryId = await enqueuePing(trx, actor.organizationId, id, actor.userId);
    return (await listDeliveries(trx, id, 1, deliveryId))[0];
  });
}

export async function webhookDeliveries(db: Db, actor: Actor, id: string): Promise<WebhookDelivery[]> {
  await existingRow(db, actor, id);
  return listDeliveries(db, id, DELIVERIES_SHOWN);
}

/**
 * Delivers a delivery's event again: a new delivery with the same event id and body, queued after
 * the webhook's others (a receiver that deduplicates on the event id sees it as the same event).
 */
export async function redeliver(db: Db, actor: Actor, webhookId: string, deliveryId: string): Promise<WebhookDelivery> {
  return db.transaction().execute(async (trx) => {
    await existingRow(trx, actor, webhookId);
    const original = await findDeliveryRow(trx, webhookId, deliveryId);
    if (!original) throw notFound('delivery');
    const id = await insertDelivery(trx, {
      organizationId: actor.organizationId,
      webhookId,
      eventId: original.event_id,
      eventType: original.event_type,
      body: original.body,
      now: nowIso(),
    });
    return (await listDeliveries(trx, webhookId, 1, id))[0];
  });
}

/**
 * The secrets that sign a delivery at `now`: the current one, and the former one during its grace
 * period. Empty when the current one cannot be opened (the server secret changed).
 */
export function signingSecrets(
  config: Config,
  sealed: { current: string; previous: string | null; previousExpiresAt: string | null },
  now: Date,
): string[] {
  const sealer = sealerFor(config);
  const current = sealer.open(SECRET_PURPOSE, sealed.current);
  if (current === undefined) return [];
  const inGrace = sealed.previous !== null && sealed.previousExpiresAt !== null && sealed.previousExpiresAt > now.toISOString();
  const previous = inGrace ? sealer.open(SECRET_PURPOSE, sealed.previous!) : undefined;
  return previous === undefined ? [current] : [current, previous];
}
