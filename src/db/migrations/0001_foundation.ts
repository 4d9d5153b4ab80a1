import type { Kysely } from 'kysely';
import { columnTypes } from '../column-types.js';
import type { MigrationContext } from './context.js';

export async function up(db: Kysely<unknown>, { dialect }: MigrationContext): Promise<void> {
  const t = columnTypes(dialect);

  await db.schema
    .createTable('organizations')
    .addColumn('id', t.id, (c) => c.primaryKey())
    .addColumn('domain', t.text, (c) => c.notNull().unique())
    .addColumn('name', t.text, (c) => c.notNull())
    .addColumn('currency', t.text, (c) => c.notNull())
    .addColumn('time_zone', t.text, (c) => c.notNull())
    .addColumn('core_hours_start', t.text, (c) => c.notNull())
    .addColumn('core_hours_end', t.text, (c) => c.notNull())
    .addColumn('rounding_enabled', t.boolean, (c) => c.notNull())
    .addColumn('rounding_interval', t.integer, (c) => c.notNull())
    .addColumn('rounding_mode', t.text, (c) => c.notNull())
    .addColumn('locking_enabled', t.boolean, (c) => c.notNull())
    .addColumn('locking_time_zone', t.text)
    .addColumn('unlock_duration', t.integer, (c) => c.notNull())
    .addColumn('lock_year', t.integer)
    .addColumn('lock_week', t.integer)
    .addColumn('holidays', t.json)
    .addColumn('notes', t.text)
    .addColumn('onboarding', t.json, (c) => c.notNull())
    .addColumn('plan', t.text, (c) => c.notNull())
    .addColumn('created_at', t.timestamp, (c) => c.notNull())
    .addColumn('updated_at', t.timestamp, (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('organization_domains')
    .addColumn('domain', t.text, (c) => c.primaryKey())
    .addColumn('organization_id', t.id, (c) => c.notNull().references('organizations.id').onDelete('cascade'))
    .addColumn('created_at', t.timestamp, (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('organization_domains_organization')
    .on('organization_domains')
    .column('organization_id')
    .execute();

  await db.schema
    .createTable('accounts')
    .addColumn('id', t.id, (c) => c.primaryKey())
    .addColumn('email', t.text, (c) => c.notNull().unique())
    .addColumn('created_at', t.timestamp, (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('users')
    .addColumn('id', t.id, (c) => c.primaryKey())
    .addColumn('organization_id', t.id, (c) => c.notNull().references('organizations.id').onDelete('cascade'))
    .addColumn('account_id', t.id, (c) => c.notNull().references('accounts.id').onDelete('cascade'))
    .addColumn('role', t.text, (c) => c.notNull())
    .addColumn('archived', t.boolean, (c) => c.notNull())
    .addColumn('name', t.text)
    .addColumn('avatar', t.text)
    .addColumn('phone', t.text)
    .addColumn('title', t.text)
    .addColumn('created_at', t.timestamp, (c) => c.notNull())
    .addUniqueConstraint('users_one_per_account', ['organization_id', 'account_id'])
    .execute();
  await db.schema.createIndex('users_account').on('users').column('account_id').execute();

  await db.schema
    .createTable('api_keys')
    .addColumn('id', t.id, (c) => c.primaryKey())
    .addColumn('organization_id', t.id, (c) => c.notNull().references('organizations.id').onDelete('cascade'))
    .addColumn('user_id', t.id, (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('name', t.text, (c) => c.notNull())
    .addColumn('prefix', t.text, (c) => c.notNull())
    .addColumn('token_hash', t.text, (c) => c.notNull().unique())
    .addColumn('created_at', t.timestamp, (c) => c.notNull())
    .addColumn('last_used_at', t.timestamp)
    .execute();
  await db.schema.createIndex('api_keys_user').on('api_keys').column('user_id').execute();

  await db.schema
    .createTable('sessions')
    .addColumn('id', t.id, (c) => c.primaryKey())
    .addColumn('account_id', t.id, (c) => c.notNull().references('accounts.id').onDelete('cascade'))
    .addColumn('token_hash', t.text, (c) => c.notNull().unique())
    .addColumn('organization_id', t.id, (c) => c.references('organizations.id').onDelete('cascade'))
    .addColumn('user_id', t.id, (c) => c.references('users.id').onDelete('cascade'))
    .addColumn('expires_at', t.timestamp, (c) => c.notNull())
    .addColumn('created_at', t.timestamp, (c) => c.notNull())
    .execute();
  await db.schema.createIndex('sessions_account').on('sessions').column('account_id').execute();
}
