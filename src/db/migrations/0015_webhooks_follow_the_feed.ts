import { sql, type Kysely } from 'kysely';
import { columnTypes } from '../column-types.js';
import type { MigrationContext } from './context.js';

/**
 * Webhooks take their events from the change feed (docs/webhooks.md "The queue"): `feed_position` is
 * the position of the workspace's feed through which a webhook's deliveries are queued. The delivery
 * worker queues the events after it and moves it on, in one transaction; a change no longer writes a
 * delivery in its own transaction. Existing webhooks start at their feed's end: the events before it
 * were queued at their writes.
 */
export async function up(db: Kysely<unknown>, { dialect }: MigrationContext): Promise<void> {
  const t = columnTypes(dialect);
  await db.schema.alterTable('webhooks').addColumn('feed_position', t.bigint, (c) => c.notNull().defaultTo(0)).execute();
  await sql`update webhooks set feed_position = coalesce((select position from change_feeds where change_feeds.organization_id = webhooks.organization_id), 0)`.execute(db);
}
