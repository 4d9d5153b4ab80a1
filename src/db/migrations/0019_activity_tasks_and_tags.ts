import type { Kysely } from 'kysely';
import { columnTypes } from '../column-types.js';
import type { MigrationContext } from './context.js';

/**
 * An activity's task and tags (docs/rules.md §6 Activities: task and tags).
 *
 * `task_id`: the task, or null; deleting the task sets it null (ON DELETE SET NULL), so the time stays.
 * `tag_ids`: the activity's tag ids as the record answers them, a JSON array text (`[]` for none),
 * which the listing renders as it is. `activity_tags` holds the same links one row each, for what
 * asks by tag (the filters, the reports' tag dimension, the entries of a deleted tag): both are
 * written together by the activities' repository, in the write's transaction. Deleting a tag takes
 * its links with it (ON DELETE CASCADE) after the tags area has taken it out of `tag_ids`.
 */
export async function up(db: Kysely<unknown>, { dialect }: MigrationContext): Promise<void> {
  const t = columnTypes(dialect);
  await db.schema.alterTable('activities').addColumn('task_id', t.id, (c) => c.references('tasks.id').onDelete('set null')).execute();
  await db.schema.alterTable('activities').addColumn('tag_ids', t.json, (c) => c.notNull().defaultTo('[]')).execute();
  await db.schema.createIndex('activities_task_started').on('activities').columns(['task_id', 'started_at']).execute();

  await db.schema
    .createTable('activity_tags')
    .addColumn('activity_id', t.id, (c) => c.notNull().references('activities.id').onDelete('cascade'))
    .addColumn('tag_id', t.id, (c) => c.notNull().references('tags.id').onDelete('cascade'))
    .addColumn('organization_id', t.id, (c) => c.notNull().references('organizations.id').onDelete('cascade'))
    .addPrimaryKeyConstraint('activity_tags_pkey', ['activity_id', 'tag_id'])
    .execute();
  await db.schema.createIndex('activity_tags_tag').on('activity_tags').columns(['tag_id', 'activity_id']).execute();
}
