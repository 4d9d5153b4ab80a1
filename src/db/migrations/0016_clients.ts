import { sql, type ColumnDefinitionBuilder, type Kysely } from 'kysely';
import { columnTypes } from '../column-types.js';
import type { MigrationContext } from './context.js';

/** The palette of project colors as it stood when this migration shipped (src/areas/projects/rules.ts has the live one). */
const PALETTE = [
  '#ef4444', '#f97316', '#f59e0b', '#84cc16', '#22c55e', '#14b8a6',
  '#06b6d4', '#3b82f6', '#6366f1', '#8b5cf6', '#d946ef', '#ec4899',
];

/**
 * Clients (docs/rules.md §6 Clients): a workspace's clients, with names unique regardless of case
 * (`name_key`, as projects have it); projects gain `client_id` (a client with projects cannot be
 * deleted: the foreign key refuses it) and `color`, which existing projects take from the palette by
 * their place in their workspace's creation order. Change events gain `client_id`: the client a
 * client event is about, by which a User reads it.
 */
export async function up(db: Kysely<unknown>, { dialect }: MigrationContext): Promise<void> {
  const t = columnTypes(dialect);
  const organizationId = (c: ColumnDefinitionBuilder) => c.notNull().references('organizations.id').onDelete('cascade');

  await db.schema
    .createTable('clients')
    .addColumn('id', t.id, (c) => c.primaryKey())
    .addColumn('organization_id', t.id, organizationId)
    .addColumn('name', t.text, (c) => c.notNull())
    .addColumn('name_key', t.text, (c) => c.notNull())
    .addColumn('archived', t.boolean, (c) => c.notNull())
    .addColumn('notes', t.text)
    .addColumn('created_at', t.timestamp, (c) => c.notNull())
    .addColumn('updated_at', t.timestamp, (c) => c.notNull())
    .addUniqueConstraint('clients_name_unique', ['organization_id', 'name_key'])
    .execute();
  await db.schema.createIndex('clients_organization_created').on('clients').columns(['organization_id', 'created_at']).execute();

  await db.schema.alterTable('projects').addColumn('client_id', t.id, (c) => c.references('clients.id')).execute();
  await db.schema.createIndex('projects_client').on('projects').column('client_id').execute();
  await db.schema.alterTable('projects').addColumn('color', t.text, (c) => c.notNull().defaultTo(PALETTE[0])).execute();
  const placeInWorkspace = sql`(select count(*) from projects earlier where earlier.organization_id = projects.organization_id
    and (earlier.created_at < projects.created_at or (earlier.created_at = projects.created_at and earlier.id < projects.id)))`;
  const byPlace = sql.join(
    PALETTE.map((color, i) => sql`when ${sql.lit(i)} then ${sql.lit(color)}`),
    sql` `,
  );
  await sql`update projects set color = case ${placeInWorkspace} % ${sql.lit(PALETTE.length)} ${byPlace} end`.execute(db);

  await db.schema.alterTable('change_events').addColumn('client_id', t.id).execute();
}
