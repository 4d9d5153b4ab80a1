import type { Db } from '../../db/database.js';
import { changesBetween } from '../changes/index.js';
import { insertDelivery, moveFeedPosition, webhooksBehind } from './repository.js';
import { matchesEvent } from './rules.js';
import { envelopeOf } from './service.js';

/** Events of its feed one webhook goes through in one pass at most; a longer backlog takes the next passes. */
export const FEED_EVENTS_PER_PASS = 1_000;
/** Webhooks moved along their feeds in one pass at most (the ones furthest behind first). */
const WEBHOOKS_PER_PASS = 100;

/**
 * The queue (docs/webhooks.md "The queue"): each enabled webhook follows its workspace's change
 * feed. For every webhook with events after its position, the events up to the feed's end (all
 * committed, in commit order) whose type it takes are queued as deliveries, and its position moves
 * past them, in one transaction; the move is conditional, so of two instances only one queues them.
 * A change thus writes nothing for the webhooks in its own transaction. Resolves to the deliveries queued.
 */
export async function queueFeedEvents(db: Db, now: string): Promise<number> {
  let queued = 0;
  for (const webhook of await webhooksBehind(db, WEBHOOKS_PER_PASS)) {
    const events = await changesBetween(db, webhook.organizationId, { after: webhook.feedPosition, through: webhook.feedEnd, limit: FEED_EVENTS_PER_PASS });
    const to = events.length === FEED_EVENTS_PER_PASS ? events[events.length - 1]!.position : webhook.feedEnd;
    const types = JSON.parse(webhook.events) as string[];
    const taken = events.filter((event) => matchesEvent(types, event.type));
    const workspace = { id: webhook.organizationId, domain: webhook.domain };
    queued += await db.transaction().execute(async (trx) => {
      if (!(await moveFeedPosition(trx, webhook.id, webhook.feedPosition, to))) return 0;
      for (const event of taken) {
        const body = envelopeOf(event, workspace);
        await insertDelivery(trx, { organizationId: webhook.organizationId, webhookId: webhook.id, eventId: event.id, eventType: event.type, body, now });
      }
      return taken.length;
    });
  }
  return queued;
}
