import { sql, type Kysely } from 'kysely';

/**
 * The pending deliveries of each webhook in order: the delivery worker's claim finds a webhook's
 * first one with one probe, never walking past the finished deliveries kept for the retention period.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createIndex('webhook_deliveries_pending')
    .on('webhook_deliveries')
    .columns(['webhook_id', 'seq'])
    .where(sql.ref('status'), '=', 'pending')
    .execute();
}
