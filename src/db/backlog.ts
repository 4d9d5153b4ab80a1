import { sql } from 'kysely';
import type { Db } from './database.js';
import { toDbBool } from './values.js';

/**
 * The work queued in the database and not yet done, read for the metrics at each scrape
 * (docs/operations.md "Metrics"): each is one small query over every workspace together, by the
 * index its queue is read by, never a scan of the rows already done.
 */

/** Mail in the outbox not yet sent (by the partial index of unsent mail). */
export async function unsentMailCount(db: Db): Promise<number> {
  const row = await db.selectFrom('outbox').select((eb) => eb.fn.countAll<number>().as('count')).where('sent_at', 'is', null).executeTakeFirst();
  return Number(row?.count ?? 0);
}

/**
 * When the oldest delivery still pending of an enabled webhook was queued (undefined: none): each
 * enabled webhook's first pending delivery is one probe of the index of pending deliveries. A
 * disabled webhook's deliveries wait for it to be enabled again and are not counted.
 */
export async function oldestPendingDelivery(db: Db): Promise<string | undefined> {
  const row = await db
    .selectFrom('webhooks as w')
    .select((eb) =>
      eb.fn
        .min(
          eb
            .selectFrom('webhook_deliveries as d')
            .select('d.created_at')
            .whereRef('d.webhook_id', '=', 'w.id')
            // A literal, as the worker's claim writes it: only then may the planner take the partial index of pending ones.
            .where('d.status', '=', sql.lit('pending'))
            .orderBy('d.seq')
            .limit(1),
        )
        .as('oldest'),
    )
    .where('w.enabled', '=', toDbBool(true))
    .executeTakeFirst();
  return row?.oldest ?? undefined;
}

/**
 * When the oldest change-feed event not yet queued for an enabled webhook was committed (undefined:
 * every enabled webhook is at its feed's end): one probe of the feed's index per enabled webhook.
 */
export async function oldestUnqueuedChange(db: Db): Promise<string | undefined> {
  const row = await db
    .selectFrom('webhooks as w')
    .select((eb) =>
      eb.fn
        .min(
          eb
            .selectFrom('change_events as e')
            .select('e.created_at')
            .whereRef('e.organization_id', '=', 'w.organization_id')
            .whereRef('e.position', '>', 'w.feed_position')
            .orderBy('e.position')
            .limit(1),
        )
        .as('oldest'),
    )
    .where('w.enabled', '=', toDbBool(true))
    .executeTakeFirst();
  return row?.oldest ?? undefined;
}
