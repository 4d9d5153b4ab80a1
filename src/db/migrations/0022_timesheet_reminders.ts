import type { Kysely } from 'kysely';
import { columnTypes } from '../column-types.js';
import type { MigrationContext } from './context.js';

/**
 * The timesheet reminders written for each week, one row per workspace and ISO week (docs/rules.md
 * §6 Timesheet schedule): the server's schedule inserts the row in the transaction that writes the
 * messages, so however many instances find the reminder due, one writes it.
 */
export async function up(db: Kysely<unknown>, { dialect }: MigrationContext): Promise<void> {
  const t = columnTypes(dialect);
  await db.schema
    .createTable('timesheet_reminders')
    .addColumn('organization_id', t.id, (c) => c.notNull().references('organizations.id').onDelete('cascade'))
    .addColumn('year', t.integer, (c) => c.notNull())
    .addColumn('week', t.integer, (c) => c.notNull())
    .addColumn('messages', t.integer, (c) => c.notNull())
    .addColumn('sent_at', t.timestamp, (c) => c.notNull())
    .addPrimaryKeyConstraint('timesheet_reminders_pk', ['organization_id', 'year', 'week'])
    .execute();
}
