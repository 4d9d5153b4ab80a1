import type { Config } from '../../config.js';
import type { Db, Trx } from '../../db/database.js';
import type { Actor } from '../../domain/actor.js';
import { notFound } from '../../domain/errors.js';
import { newId } from '../../lib/ids.js';
import { CHANGE_TYPES, feedEnd } from '../changes/index.js';
import { lockRowForWrite } from '../../db/locks.js';
import { fromDbBool } from '../../db/values.js';
import { sealerFor } from '../../lib/sealing.js';
import { nowIso } from '../../lib/time.js';
import {
  countWebhooks,
  deleteWebhook,
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
import { assertRoomForWebhook, cleanEventTypes, cleanWebhookUrl, newSecret, SECRET_GRACE_MS, SECRET_PURPOSE } from './rules.js';
import type { Webhook, WebhookCreate, WebhookDelivery, WebhookUpdate, WebhookWithSecret } from './schemas.js';

const KNOWN_EVENT_TYPES: ReadonlySet<string> = new Set(Object.keys(CHANGE_TYPES));

/** How many deliveries GET /webhooks/{id}/deliveries shows. */
export const DELIVERIES_SHOWN = 100;

/** An event as a webhook delivers it: a change of the feed, or a test ping. */
export interface WebhookEvent {
  id: string;
  type: string;
  createdAt: string;
  actorId: string | null;
  /** The event's data, as JSON. */
  data: string;
}

/** The body of an event's deliveries, in the order of WebhookEnvelope's fields, with the data as the feed stored it. */
export function envelopeOf(event: WebhookEvent, workspace: { id: string; domain: string }): string {
  return (
    `{"id":${JSON.stringify(event.id)},"type":${JSON.stringify(event.type)},"createdAt":${JSON.stringify(event.createdAt)},` +
    `"workspace":${JSON.stringify({ id: workspace.id, domain: workspace.domain })},"actorId":${JSON.stringify(event.actorId)},"data":${event.data}}`
  );
}

/** A test ping: a delivery like any other, of type `ping`, to this webhook only (not an event of the feed). */
async function enqueuePing(trx: Trx, organizationId: string, webhookId: string, actorId: string | null): Promise<string> {
  const now = nowIso();
  const event: WebhookEvent = { id: newId(), type: 'ping', createdAt: now, actorId, data: JSON.stringify({ webhookId }) };
  const body = envelopeOf(event, await workspaceOf(trx, organizationId));
  return insertDelivery(trx, { organizationId, webhookId, eventId: event.id, eventType: 'ping', body, now });
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

/**
 * Creates the webhook with a new secret (answered this once) and queues its first ping. A workspace
 * has at most WEBHOOKS_PER_WORKSPACE webhooks (409 beyond); its row is locked first, so concurrent
 * creations are counted one after another and cannot pass the bound together.
 */
export async function createWebhook(db: Db, config: Config, actor: Actor, body: WebhookCreate): Promise<WebhookWithSecret> {
  const values = {
    url: cleanWebhookUrl(body.url, config.webhooks.allowPrivate),
    events: cleanEventTypes(body.events, KNOWN_EVENT_TYPES),
    enabled: body.enabled ?? true,
    description: body.description?.trim() || null,
  };
  const secret = newSecret();
  const row = await db.transaction().execute(async (trx) => {
    await lockRowForWrite(trx, 'organizations', actor.organizationId);
    assertRoomForWebhook(await countWebhooks(trx, actor.organizationId));
    // It takes the events committed from now on (docs/webhooks.md "The queue").
    const feedPosition = await feedEnd(trx, actor.organizationId);
    const inserted = await insertWebhook(trx, actor.organizationId, values, { sealed: sealerFor(config).seal(SECRET_PURPOSE, secret), feedPosition }, nowIso());
    await enqueuePing(trx, actor.organizationId, inserted.id, actor.userId);
    return inserted;
  });
  return { ...toWebhook(row), secret };
}

/**
 * A partial update. Enabling a disabled webhook clears the reason the service gave for disabling it,
 * and it takes the events committed from then on: none of those made while it was off.
 */
export async function changeWebhook(db: Db, config: Config, actor: Actor, id: string, body: WebhookUpdate): Promise<Webhook> {
  const changes: WebhookChanges = {
    url: body.url === undefined ? undefined : cleanWebhookUrl(body.url, config.webhooks.allowPrivate),
    events: body.events === undefined ? undefined : cleanEventTypes(body.events, KNOWN_EVENT_TYPES),
    enabled: body.enabled,
    description: body.description === undefined ? undefined : body.description?.trim() || null,
    disabledReason: body.enabled === true ? null : undefined,
  };
  return db.transaction().execute(async (trx) => {
    const before = await existingRow(trx, actor, id);
    if (body.enabled === true && !fromDbBool(before.enabled)) changes.feedPosition = await feedEnd(trx, actor.organizationId);
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

/** A new signing secret, sealed as stored: an imported webhook's (docs/rules.md §6 Export), which nobody has read. */
export const sealedNewWebhookSecret = (config: Config): string => sealerFor(config).seal(SECRET_PURPOSE, newSecret());
