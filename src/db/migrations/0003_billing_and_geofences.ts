import type { ColumnDefinitionBuilder, Kysely } from 'kysely';
import { columnTypes } from '../column-types.js';
import type { MigrationContext } from './context.js';

export async function up(db: Kysely<unknown>, { dialect }: MigrationContext): Promise<void> {
  const t = columnTypes(dialect);
  const organizationId = (c: ColumnDefinitionBuilder) => c.notNull().references('organizations.id').onDelete('cascade');

  // Subscription ids are the provider's: unique within a workspace, not across workspaces.
  await db.schema
    .createTable('subscriptions')
    .addColumn('organization_id', t.id, organizationId)
    .addColumn('id', t.id, (c) => c.notNull())
    .addColumn('status', t.text, (c) => c.notNull())
    .addColumn('plan', t.text)
    .addColumn('next_bill_date', t.text)
    .addColumn('quantity', t.integer)
    .addColumn('created_at', t.timestamp, (c) => c.notNull())
    .addColumn('updated_at', t.timestamp, (c) => c.notNull())
    .addPrimaryKeyConstraint('subscriptions_pk', ['organization_id', 'id'])
    .execute();

  await db.schema
    .createTable('billing_transactions')
    .addColumn('organization_id', t.id, organizationId)
    .addColumn('id', t.id, (c) => c.notNull())
    .addColumn('amount', t.real, (c) => c.notNull())
    .addColumn('currency', t.text, (c) => c.notNull())
    .addColumn('status', t.text, (c) => c.notNull())
    .addColumn('paid_at', t.timestamp)
    .addColumn('created_at', t.timestamp, (c) => c.notNull())
    .addPrimaryKeyConstraint('billing_transactions_pk', ['organization_id', 'id'])
    .execute();

  await db.schema
    .createTable('receipts')
    .addColumn('id', t.id, (c) => c.primaryKey())
    .addColumn('organization_id', t.id, organizationId)
    .addColumn('user_id', t.id, (c) => c.references('users.id').onDelete('set null'))
    .addColumn('receipt', t.text, (c) => c.notNull())
    .addColumn('created_at', t.timestamp, (c) => c.notNull())
    .execute();
  await db.schema.createIndex('receipts_organization').on('receipts').columns(['organization_id', 'created_at']).execute();
  await db.schema.createIndex('receipts_user').on('receipts').column('user_id').execute();

  await db.schema
    .createTable('geofences')
    .addColumn('id', t.id, (c) => c.primaryKey())
    .addColumn('organization_id', t.id, organizationId)
    // Deleting a project keeps its geofences, without a project.
    .addColumn('project_id', t.id, (c) => c.references('projects.id').onDelete('set null'))
    .addColumn('name', t.text)
    .addColumn('latitude', t.real, (c) => c.notNull())
    .addColumn('longitude', t.real, (c) => c.notNull())
    .addColumn('radius', t.real, (c) => c.notNull())
    .addColumn('enter_action', t.text)
    .addColumn('exit_action', t.text)
    .addColumn('created_at', t.timestamp, (c) => c.notNull())
    .addColumn('updated_at', t.timestamp, (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('geofences_organization_created')
    .on('geofences')
    .columns(['organization_id', 'created_at'])
    .execute();
  await db.schema.createIndex('geofences_project').on('geofences').column('project_id').execute();
}
