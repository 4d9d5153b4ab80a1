import { sql, type Kysely } from 'kysely';
import { columnTypes } from '../column-types.js';
import type { MigrationContext } from './context.js';

/**
 * The change feed (docs/rules.md §6 Change feed, docs/durability.md "The change feed"): change_events holds one
 * row per committed change, numbered per workspace in commit order by `position`; change_feeds holds
 * per workspace the last position given and how far pruning went (`pruned_through`).
 *
 * On PostgreSQL a position is taken at COMMIT by a deferred constraint trigger, under the row lock of
 * the workspace's change_feeds row: a later position can only be given once the earlier one's
 * transaction has ended, so positions become visible in order and a reader never skips one. On
 * SQLite (one writer) the insert takes the next position from the same row at once.
 */
export async function up(db: Kysely<unknown>, { dialect }: MigrationContext): Promise<void> {
  const t = columnTypes(dialect);
  const pg = dialect === 'postgres';

  await db.schema
    .createTable('change_feeds')
    .addColumn('organization_id', t.id, (c) => c.primaryKey().references('organizations.id').onDelete('cascade'))
    .addColumn('position', t.bigint, (c) => c.notNull().defaultTo(0))
    .addColumn('pruned_through', t.bigint, (c) => c.notNull().defaultTo(0))
    .execute();

  await db.schema
    .createTable('change_events')
    // The public event id; lookups go by position, so SQLite keeps no index on it.
    .addColumn('id', t.id, (c) => (pg ? c.primaryKey() : c.notNull()))
    .addColumn('organization_id', t.id, (c) => c.notNull().references('organizations.id').onDelete('cascade'))
    // Null on PostgreSQL only until the transaction's COMMIT gives it.
    .addColumn('position', t.bigint, (c) => (pg ? c : c.notNull()))
    .addColumn('type', t.text, (c) => c.notNull())
    .addColumn('resource', t.text, (c) => c.notNull())
    // Who may read the event as a User: the record's owner and project (no foreign keys: deletions stay described).
    .addColumn('subject_user_id', t.id)
    .addColumn('project_id', t.id)
    .addColumn('actor_id', t.id)
    .addColumn('data', t.json, (c) => c.notNull())
    .addColumn('created_at', t.timestamp, (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('change_events_feed')
    .on('change_events')
    .columns(['organization_id', 'position'])
    .unique()
    .execute();
  // Pruning finds the events older than the retention.
  await db.schema.createIndex('change_events_created').on('change_events').column('created_at').execute();

  if (!pg) return;
  await sql`
    create function change_events_take_position() returns trigger language plpgsql as $$
    declare
      taken bigint;
    begin
      -- An event whose workspace was deleted later in the same transaction is gone: nothing to number.
      if not exists (select 1 from change_events where id = new.id) then
        return null;
      end if;
      insert into change_feeds as feed (organization_id, position) values (new.organization_id, 1)
        on conflict (organization_id) do update set position = feed.position + 1
        returning feed.position into taken;
      update change_events set position = taken where id = new.id;
      return null;
    end
    $$`.execute(db);
  await sql`
    create constraint trigger change_events_position after insert on change_events
    deferrable initially deferred for each row execute function change_events_take_position()`.execute(db);
}
