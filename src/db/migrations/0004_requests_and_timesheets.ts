import type { ColumnDefinitionBuilder, Kysely } from 'kysely';
import { columnTypes } from '../column-types.js';
import type { MigrationContext } from './context.js';

export async function up(db: Kysely<unknown>, { dialect }: MigrationContext): Promise<void> {
  const t = columnTypes(dialect);
  const organizationId = (c: ColumnDefinitionBuilder) => c.notNull().references('organizations.id').onDelete('cascade');

  await db.schema
    .createTable('requests')
    .addColumn('id', t.id, (c) => c.primaryKey())
    .addColumn('organization_id', t.id, organizationId)
    .addColumn('type', t.text, (c) => c.notNull())
    .addColumn('status', t.text, (c) => c.notNull())
    // Deleting a user deletes their requests (docs/rules.md §6); the CLI's impersonation request has no user.
    .addColumn('created_by', t.id, (c) => c.references('users.id').onDelete('cascade'))
    .addColumn('created_at', t.timestamp, (c) => c.notNull())
    .addColumn('resolved_at', t.timestamp)
    .addColumn('resolved_by', t.id, (c) => c.references('users.id').onDelete('set null'))
    .addColumn('payload', t.json, (c) => c.notNull())
    .execute();
  // GET /requests as an administrator: the workspace's requests in creation order.
  await db.schema.createIndex('requests_organization_created').on('requests').columns(['organization_id', 'created_at']).execute();
  // GET /requests as a User (their own), and the cascade when a user is deleted.
  await db.schema.createIndex('requests_created_by').on('requests').columns(['created_by', 'created_at']).execute();
  // The set-null when the resolving user is deleted.
  await db.schema.createIndex('requests_resolved_by').on('requests').column('resolved_by').execute();

  await db.schema
    .createTable('timesheet_locks')
    .addColumn('id', t.id, (c) => c.primaryKey())
    .addColumn('organization_id', t.id, organizationId)
    .addColumn('user_id', t.id, (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('year', t.integer, (c) => c.notNull())
    .addColumn('week', t.integer, (c) => c.notNull())
    .addColumn('unlocked_to', t.timestamp)
    .addColumn('created_at', t.timestamp, (c) => c.notNull())
    .addColumn('updated_at', t.timestamp, (c) => c.notNull())
    // One record per user and ISO week: the upsert target, and the lookup of the lock rule.
    .addUniqueConstraint('timesheet_locks_one_per_week', ['user_id', 'year', 'week'])
    .execute();
  // GET /timesheets/locks: the workspace's locks in creation order.
  await db.schema
    .createIndex('timesheet_locks_organization_created')
    .on('timesheet_locks')
    .columns(['organization_id', 'created_at'])
    .execute();

  await db.schema
    .createTable('one_time_tokens')
    .addColumn('id', t.id, (c) => c.primaryKey())
    .addColumn('organization_id', t.id, organizationId)
    .addColumn('user_id', t.id, (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('token_hash', t.text, (c) => c.notNull().unique())
    .addColumn('expires_at', t.timestamp, (c) => c.notNull())
    .addColumn('used_at', t.timestamp)
    .addColumn('created_at', t.timestamp, (c) => c.notNull())
    .execute();
  await db.schema.createIndex('one_time_tokens_user').on('one_time_tokens').column('user_id').execute();
}
