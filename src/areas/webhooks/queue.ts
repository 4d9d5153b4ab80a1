import type { Db } from '../../db/database.js';
import { changesBetween, type StoredChange } from '../changes/index.js';
import { insertDeliveries, moveFeedPosition, webhooksBehind } from './repository.js';
import { DELIVERIES_PER_RUN, matchesEvent } from './rules.js';
import { envelopeOf } from './service.js';

/** Events of its feed one webhook looks through in one pass at most (one read). */
export const FEED_EVENTS_READ_PER_PASS = 1_000;
/**
 * Deliveries one webhook queues in one pass at most: a few runs ahead of what a pass delivers, so a
 * pass stays short while a long backlog is queued over the next ones.
 */
export const QUEUED_PER_PASS = 4 * DELIVERIES_PER_RUN;
/** Webhooks moved along their feeds in one pass at most (the ones furthest behind first). */
const WEBHOOKS_PER_PASS = 100;

/**
 * A webhook that was behind its feed by more than the feed keeps (CHANGE_RETENTION_DAYS): the events
 * after `after` through `prunedThrough` were pruned before they were queued, and it never gets them.
 */
export interface MissedFeedEvents {
  webhookId: string;
  workspace: string;
  after: number;
  prunedThrough: number;
}

/**
 * The queue (docs/webhooks.md "The queue"): each enabled webhook follows its workspace's change
 * feed. For every webhook with events after its position, the events up to the feed's end (all
 * committed, in commit order) whose type it takes are queued as deliveries, and its position moves
 * past those looked through, in one transaction; the move is conditional, so of two instances only
 * one queues them. A change thus writes nothing for the webhooks in its own transaction. Resolves to
 * the webhooks found further behind than the feed keeps, each reported once (its position then
 * moves past the lapse).
 */
export async function queueFeedEvents(db: Db, now: string): Promise<MissedFeedEvents[]> {
  const missed: MissedFeedEvents[] = [];
  for (const webhook of await webhooksBehind(db, WEBHOOKS_PER_PASS)) {
    if (webhook.feedPosition < webhook.prunedThrough) {
      missed.push({ webhookId: webhook.id, workspace: webhook.domain, after: webhook.feedPosition, prunedThrough: webhook.prunedThrough });
    }
    const events = await changesBetween(db, webhook.organizationId, { after: webhook.feedPosition, through: webhook.feedEnd, limit: FEED_EVENTS_READ_PER_PASS });
    const types = JSON.parse(webhook.events) as string[];
    const taken: StoredChange[] = [];
    let to = events.length === FEED_EVENTS_READ_PER_PASS ? events[events.length - 1]!.position : webhook.feedEnd;
    for (const event of events) {
      if (!matchesEvent(types, event.type)) continue;
      taken.push(event);
      if (taken.length === QUEUED_PER_PASS) {
        to = event.position;
        break;
      }
    }
    const workspace = { id: webhook.organizationId, domain: webhook.domain };
    const deliveries = taken.map((event) => ({ organizationId: webhook.organizationId, webhookId: webhook.id, eventId: event.id, eventType: event.type, body: envelopeOf(event, workspace), now }));
    await db.transaction().execute(async (trx) => {
      if (!(await moveFeedPosition(trx, webhook.id, webhook.feedPosition, to))) return;
      await insertDeliveries(trx, webhook.id, deliveries);
    });
  }
  return missed;
}
