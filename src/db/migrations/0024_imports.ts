import { sql, type Kysely } from 'kysely';
import { columnTypes } from '../column-types.js';
import type { MigrationContext } from './context.js';

/**
 * Imports (docs/rules.md §6 Imports): one row per import; the entries an import stages before it
 * applies them in one transaction; and the key of every row an import brought in, so that the same
 * row imported again is skipped. At most one import is queued or running per workspace, held by a
 * partial unique index under concurrency.
 */
export async function up(db: Kysely<unknown>, { dialect }: MigrationContext): Promise<void> {
  const t = columnTypes(dialect);
  await db.schema
    .createTable('imports')
    .addColumn('id', t.id, (c) => c.primaryKey())
    .addColumn('organization_id', t.id, (c) => c.notNull().references('organizations.id').onDelete('cascade'))
    .addColumn('created_by', t.id, (c) => c.notNull())
    .addColumn('source', t.text, (c) => c.notNull())
    .addColumn('status', t.text, (c) => c.notNull())
    .addColumn('dry_run', t.boolean, (c) => c.notNull())
    .addColumn('mode', t.text, (c) => c.notNull())
    .addColumn('options', t.json, (c) => c.notNull())
    .addColumn('rows', t.integer, (c) => c.notNull())
    .addColumn('rows_done', t.integer, (c) => c.notNull())
    .addColumn('created', t.json, (c) => c.notNull())
    .addColumn('skipped', t.integer, (c) => c.notNull())
    .addColumn('error_count', t.integer, (c) => c.notNull())
    .addColumn('errors', t.json, (c) => c.notNull())
    .addColumn('warnings', t.json, (c) => c.notNull())
    .addColumn('period', t.json)
    .addColumn('created_at', t.timestamp, (c) => c.notNull())
    .addColumn('finished_at', t.timestamp)
    .addColumn('heartbeat_at', t.timestamp, (c) => c.notNull())
    .execute();
  await db.schema.createIndex('imports_organization_created').on('imports').columns(['organization_id', 'created_at']).execute();
  await db.schema
    .createIndex('imports_one_at_a_time')
    .on('imports')
    .column('organization_id')
    .unique()
    .where(sql.ref('status'), 'in', sql`('queued', 'running')`)
    .execute();

  await db.schema
    .createTable('import_entries')
    .addColumn('import_id', t.id, (c) => c.notNull().references('imports.id').onDelete('cascade'))
    .addColumn('seq', t.integer, (c) => c.notNull())
    .addColumn('organization_id', t.id, (c) => c.notNull())
    .addColumn('id', t.id, (c) => c.notNull())
    .addColumn('user_id', t.id, (c) => c.notNull())
    .addColumn('project_id', t.id)
    .addColumn('task_id', t.id)
    .addColumn('name', t.text, (c) => c.notNull())
    .addColumn('billable', t.boolean, (c) => c.notNull())
    .addColumn('started_at', t.timestamp, (c) => c.notNull())
    .addColumn('ended_at', t.timestamp, (c) => c.notNull())
    .addColumn('tag_ids', t.json, (c) => c.notNull())
    .addColumn('source_key', t.text, (c) => c.notNull())
    .addPrimaryKeyConstraint('import_entries_pk', ['import_id', 'seq'])
    .execute();

  await db.schema
    .createTable('import_keys')
    .addColumn('organization_id', t.id, (c) => c.notNull().references('organizations.id').onDelete('cascade'))
    .addColumn('source', t.text, (c) => c.notNull())
    .addColumn('source_key', t.text, (c) => c.notNull())
    .addColumn('record_id', t.id, (c) => c.notNull())
    .addColumn('import_id', t.id, (c) => c.notNull())
    .addPrimaryKeyConstraint('import_keys_pk', ['organization_id', 'source', 'source_key'])
    .execute();
}
