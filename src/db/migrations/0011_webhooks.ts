import type { Kysely } from 'kysely';
import { columnTypes } from '../column-types.js';
import type { MigrationContext } from './context.js';

/**
 * Webhooks and their delivery outbox (docs/webhooks.md). A delivery row is written in the
 * transaction of the change it reports; `seq` orders one webhook's deliveries (taken from
 * webhooks.next_seq under the webhook's row lock, so it follows commit order), and the workers
 * deliver only the first unfinished delivery of each webhook.
 */
export async function up(db: Kysely<unknown>, { dialect }: MigrationContext): Promise<void> {
  const t = columnTypes(dialect);
  await db.schema
    .createTable('webhooks')
    .addColumn('id', t.id, (c) => c.primaryKey())
    .addColumn('organization_id', t.id, (c) => c.notNull().references('organizations.id').onDelete('cascade'))
    .addColumn('url', t.text, (c) => c.notNull())
    .addColumn('events', t.json, (c) => c.notNull())
    .addColumn('enabled', t.boolean, (c) => c.notNull())
    .addColumn('description', t.text)
    // AES-256-GCM sealed secrets (docs/webhooks.md "Secrets at rest"); never the secret in the clear.
    .addColumn('secret_sealed', t.text, (c) => c.notNull())
    .addColumn('previous_secret_sealed', t.text)
    .addColumn('previous_secret_expires_at', t.timestamp)
    .addColumn('disabled_reason', t.text)
    .addColumn('next_seq', t.bigint, (c) => c.notNull().defaultTo(0))
    .addColumn('created_at', t.timestamp, (c) => c.notNull())
    .addColumn('updated_at', t.timestamp, (c) => c.notNull())
    .execute();
  await db.schema.createIndex('webhooks_organization').on('webhooks').columns(['organization_id', 'created_at']).execute();

  await db.schema
    .createTable('webhook_deliveries')
    .addColumn('id', t.id, (c) => c.primaryKey())
    .addColumn('organization_id', t.id, (c) => c.notNull().references('organizations.id').onDelete('cascade'))
    .addColumn('webhook_id', t.id, (c) => c.notNull().references('webhooks.id').onDelete('cascade'))
    .addColumn('seq', t.bigint, (c) => c.notNull())
    .addColumn('event_id', t.id, (c) => c.notNull())
    .addColumn('event_type', t.text, (c) => c.notNull())
    /** The request body, fixed when the delivery is written: every attempt sends the same bytes. */
    .addColumn('body', t.text, (c) => c.notNull())
    .addColumn('status', t.text, (c) => c.notNull())
    .addColumn('attempts', t.integer, (c) => c.notNull().defaultTo(0))
    .addColumn('first_attempt_at', t.timestamp)
    .addColumn('next_attempt_at', t.timestamp, (c) => c.notNull())
    .addColumn('locked_until', t.timestamp)
    .addColumn('claim', t.text)
    .addColumn('finished_at', t.timestamp)
    .addColumn('created_at', t.timestamp, (c) => c.notNull())
    .execute();
  await db.schema.createIndex('webhook_deliveries_order').on('webhook_deliveries').columns(['webhook_id', 'seq']).unique().execute();
  await db.schema.createIndex('webhook_deliveries_due').on('webhook_deliveries').columns(['status', 'next_attempt_at']).execute();

  await db.schema
    .createTable('webhook_attempts')
    .addColumn('id', t.id, (c) => c.primaryKey())
    .addColumn('delivery_id', t.id, (c) => c.notNull().references('webhook_deliveries.id').onDelete('cascade'))
    .addColumn('attempted_at', t.timestamp, (c) => c.notNull())
    .addColumn('status_code', t.integer)
    .addColumn('duration_ms', t.integer, (c) => c.notNull())
    .addColumn('error', t.text)
    .execute();
  await db.schema.createIndex('webhook_attempts_delivery').on('webhook_attempts').columns(['delivery_id', 'attempted_at']).execute();
}
