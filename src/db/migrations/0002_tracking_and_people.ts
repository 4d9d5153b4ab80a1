import { sql, type ColumnDefinitionBuilder, type CreateTableBuilder, type Kysely } from 'kysely';
import { columnTypes } from '../column-types.js';
import type { MigrationContext } from './context.js';

export async function up(db: Kysely<unknown>, { dialect }: MigrationContext): Promise<void> {
  const t = columnTypes(dialect);
  const organizationId = (c: ColumnDefinitionBuilder) => c.notNull().references('organizations.id').onDelete('cascade');

  await db.schema
    .createTable('projects')
    .addColumn('id', t.id, (c) => c.primaryKey())
    .addColumn('organization_id', t.id, organizationId)
    .addColumn('name', t.text, (c) => c.notNull())
    .addColumn('name_key', t.text, (c) => c.notNull())
    .addColumn('archived', t.boolean, (c) => c.notNull())
    .addColumn('billable', t.boolean, (c) => c.notNull())
    .addColumn('avatar', t.text)
    .addColumn('notes', t.text)
    .addColumn('created_at', t.timestamp, (c) => c.notNull())
    .addColumn('updated_at', t.timestamp, (c) => c.notNull())
    .addUniqueConstraint('projects_name_unique', ['organization_id', 'name_key'])
    .execute();

  await db.schema
    .createTable('project_members')
    .addColumn('id', t.id, (c) => c.primaryKey())
    .addColumn('organization_id', t.id, organizationId)
    .addColumn('project_id', t.id, (c) => c.notNull().references('projects.id').onDelete('cascade'))
    .addColumn('user_id', t.id, (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('role', t.text, (c) => c.notNull())
    .addColumn('archived', t.boolean, (c) => c.notNull())
    .addColumn('assigned_by', t.id, (c) => c.references('users.id').onDelete('set null'))
    .addColumn('title', t.text)
    .addColumn('notes', t.text)
    .addColumn('tags', t.json)
    .addColumn('created_at', t.timestamp, (c) => c.notNull())
    .addColumn('updated_at', t.timestamp, (c) => c.notNull())
    .addUniqueConstraint('project_members_one_per_user', ['project_id', 'user_id'])
    .execute();
  await db.schema.createIndex('project_members_user').on('project_members').column('user_id').execute();

  await db.schema
    .createTable('activities')
    .addColumn('id', t.id, (c) => c.primaryKey())
    .addColumn('organization_id', t.id, organizationId)
    .addColumn('user_id', t.id, (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('project_id', t.id, (c) => c.references('projects.id').onDelete('set null'))
    .addColumn('name', t.text, (c) => c.notNull())
    .addColumn('billable', t.boolean, (c) => c.notNull())
    .addColumn('started_at', t.timestamp, (c) => c.notNull())
    .addColumn('ended_at', t.timestamp)
    .addColumn('created_at', t.timestamp, (c) => c.notNull())
    .addColumn('updated_at', t.timestamp, (c) => c.notNull())
    .execute();
  // A user's period (and the user filter): GET /activities as a User, or ?userId=.
  await db.schema.createIndex('activities_user_started').on('activities').columns(['user_id', 'started_at']).execute();
  // An administrator's period over the whole workspace.
  await db.schema
    .createIndex('activities_organization_started')
    .on('activities')
    .columns(['organization_id', 'started_at'])
    .execute();
  // ?projectId= and the activities of projects a User administers.
  await db.schema.createIndex('activities_project_started').on('activities').columns(['project_id', 'started_at']).execute();
  // At most one running timer per user, enforced by the database under concurrency.
  await db.schema
    .createIndex('activities_one_running_timer')
    .on('activities')
    .column('user_id')
    .unique()
    .where(sql.ref('ended_at'), 'is', null)
    .execute();

  const rateColumns = (builder: CreateTableBuilder<string, string>) =>
    builder
      .addColumn('currency', t.text, (c) => c.notNull())
      .addColumn('from_at', t.timestamp, (c) => c.notNull())
      .addColumn('to_at', t.timestamp)
      .addColumn('tax_rate', t.real, (c) => c.notNull())
      .addColumn('value', t.real, (c) => c.notNull())
      .addColumn('created_at', t.timestamp, (c) => c.notNull())
      .addColumn('updated_at', t.timestamp, (c) => c.notNull());

  await rateColumns(
    db.schema
      .createTable('revenue_rates')
      .addColumn('id', t.id, (c) => c.primaryKey())
      .addColumn('organization_id', t.id, organizationId)
      .addColumn('project_id', t.id, (c) => c.notNull().references('projects.id').onDelete('cascade'))
      .addColumn('member_id', t.id, (c) => c.notNull().references('project_members.id').onDelete('cascade')),
  ).execute();
  await db.schema.createIndex('revenue_rates_member_from').on('revenue_rates').columns(['member_id', 'from_at']).execute();

  await rateColumns(
    db.schema
      .createTable('cost_rates')
      .addColumn('id', t.id, (c) => c.primaryKey())
      .addColumn('organization_id', t.id, organizationId)
      .addColumn('user_id', t.id, (c) => c.notNull().references('users.id').onDelete('cascade')),
  ).execute();
  await db.schema.createIndex('cost_rates_user_from').on('cost_rates').columns(['user_id', 'from_at']).execute();

  await db.schema
    .createTable('user_preferences')
    .addColumn('user_id', t.id, (c) => c.primaryKey().references('users.id').onDelete('cascade'))
    .addColumn('document', t.json, (c) => c.notNull())
    .addColumn('updated_at', t.timestamp, (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('reports')
    .addColumn('id', t.id, (c) => c.primaryKey())
    .addColumn('organization_id', t.id, organizationId)
    .addColumn('user_id', t.id, (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('name', t.text, (c) => c.notNull())
    .addColumn('definition', t.json, (c) => c.notNull())
    .addColumn('created_at', t.timestamp, (c) => c.notNull())
    .addColumn('updated_at', t.timestamp, (c) => c.notNull())
    .execute();
  await db.schema.createIndex('reports_user').on('reports').column('user_id').execute();

  await db.schema
    .createTable('outbox')
    .addColumn('id', t.id, (c) => c.primaryKey())
    .addColumn('organization_id', t.id, (c) => c.references('organizations.id').onDelete('cascade'))
    .addColumn('to_address', t.text, (c) => c.notNull())
    .addColumn('kind', t.text, (c) => c.notNull())
    .addColumn('subject', t.text, (c) => c.notNull())
    .addColumn('body', t.text, (c) => c.notNull())
    .addColumn('created_at', t.timestamp, (c) => c.notNull())
    .addColumn('sent_at', t.timestamp)
    .addColumn('attempts', t.integer, (c) => c.notNull().defaultTo(0))
    .addColumn('last_error', t.text)
    .addColumn('locked_until', t.timestamp)
    .execute();
  await db.schema.createIndex('outbox_organization').on('outbox').columns(['organization_id', 'created_at']).execute();
  await db.schema
    .createIndex('outbox_unsent')
    .on('outbox')
    .column('created_at')
    .where(sql.ref('sent_at'), 'is', null)
    .execute();
}
