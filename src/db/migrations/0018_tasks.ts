import type { Kysely } from 'kysely';
import { columnTypes } from '../column-types.js';
import type { MigrationContext } from './context.js';

/**
 * The tasks of a project (docs/rules.md §6 Tasks). A name is unique within its project regardless of
 * case by its `name_key`, the name case-folded by the service as project names are (SQLite's lower()
 * folds ASCII only). A task goes with its project (ON DELETE CASCADE); `billable` null means the project's.
 */
export async function up(db: Kysely<unknown>, { dialect }: MigrationContext): Promise<void> {
  const t = columnTypes(dialect);
  await db.schema
    .createTable('tasks')
    .addColumn('id', t.id, (c) => c.primaryKey())
    .addColumn('organization_id', t.id, (c) => c.notNull().references('organizations.id').onDelete('cascade'))
    .addColumn('project_id', t.id, (c) => c.notNull().references('projects.id').onDelete('cascade'))
    .addColumn('name', t.text, (c) => c.notNull())
    .addColumn('name_key', t.text, (c) => c.notNull())
    .addColumn('archived', t.boolean, (c) => c.notNull())
    .addColumn('billable', t.boolean)
    .addColumn('created_at', t.timestamp, (c) => c.notNull())
    .addColumn('updated_at', t.timestamp, (c) => c.notNull())
    .addUniqueConstraint('tasks_name_unique', ['project_id', 'name_key'])
    .execute();
  await db.schema.createIndex('tasks_project_created').on('tasks').columns(['project_id', 'created_at']).execute();
}
