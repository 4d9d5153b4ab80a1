import type { Kysely } from 'kysely';
import { columnTypes } from '../column-types.js';
import type { MigrationContext } from './context.js';

/**
 * The workspace's tags (docs/rules.md §6 Tags). A name is unique in the workspace regardless of case
 * by its `name_key`, the name case-folded by the service as project names are: SQLite's lower() folds
 * ASCII only, so an index on lower(name) would let "Äpfel" and "äpfel" both in on one store and not
 * on the other. The link to activities comes later, its foreign key to tags.id ON DELETE CASCADE.
 */
export async function up(db: Kysely<unknown>, { dialect }: MigrationContext): Promise<void> {
  const t = columnTypes(dialect);
  await db.schema
    .createTable('tags')
    .addColumn('id', t.id, (c) => c.primaryKey())
    .addColumn('organization_id', t.id, (c) => c.notNull().references('organizations.id').onDelete('cascade'))
    .addColumn('name', t.text, (c) => c.notNull())
    .addColumn('name_key', t.text, (c) => c.notNull())
    .addColumn('archived', t.boolean, (c) => c.notNull())
    .addColumn('created_at', t.timestamp, (c) => c.notNull())
    .addColumn('updated_at', t.timestamp, (c) => c.notNull())
    .addUniqueConstraint('tags_name_unique', ['organization_id', 'name_key'])
    .execute();
}
