import { sql, type Kysely } from 'kysely';
import { columnTypes } from '../column-types.js';
import { ACTIVITY_LENGTH_FLOOR_SECONDS, SQLITE_ACTIVITY_ENTRY_0005 as SQLITE_ACTIVITY_ENTRY } from '../frozen/activity-listing.js';
import type { MigrationContext } from './context.js';

/**
 * GET /activities at any history size: its cost follows the size of the answer, not of the history.
 *
 * - activities_user_listing replaces activities_user_started (same leading columns, so it serves
 *   every query that one did): it also holds id, ended_at and the listed record (SQLite: the rendered
 *   entry; PostgreSQL: the columns, for an index-only scan), so a user's period is one index range.
 * - activity_length_bounds: per user, the longest closed activity when it is over a day (kept by the
 *   write path), so that `from` becomes an index bound: an activity ending after `from` started after
 *   `from` minus the longest length. Running timers are found through the partial indexes below.
 * - activities_running_user and activities_running_organization: the running timers of a user or a
 *   workspace, for the same bound.
 */
export async function up(db: Kysely<unknown>, { dialect }: MigrationContext): Promise<void> {
  const t = columnTypes(dialect);

  await db.schema
    .createTable('activity_length_bounds')
    .addColumn('user_id', t.id, (c) => c.primaryKey().references('users.id').onDelete('cascade'))
    .addColumn('organization_id', t.id, (c) => c.notNull().references('organizations.id').onDelete('cascade'))
    // Up to ten thousand years: more than PostgreSQL's integer holds.
    .addColumn('longest_seconds', dialect === 'postgres' ? sql`bigint` : t.integer, (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('activity_length_bounds_organization')
    .on('activity_length_bounds')
    .column('organization_id')
    .execute();

  // The bounds of the activities already recorded (whole seconds, rounded up).
  const seconds =
    dialect === 'postgres'
      ? sql`floor(extract(epoch from (ended_at::timestamptz - started_at::timestamptz)))::bigint + 1`
      : sql`cast((julianday(ended_at) - julianday(started_at)) * 86400 as integer) + 1`;
  await sql`
    insert into activity_length_bounds (user_id, organization_id, longest_seconds)
    select user_id, organization_id, max(${seconds}) from activities
    where ended_at is not null
    group by user_id, organization_id
    having max(${seconds}) > ${sql.lit(ACTIVITY_LENGTH_FLOOR_SECONDS)}
  `.execute(db);

  if (dialect === 'postgres') {
    await sql`create index activities_user_listing on activities (user_id, started_at, id) include (ended_at, project_id, billable, name)`.execute(
      db,
    );
  } else {
    await sql`create index activities_user_listing on activities (user_id, started_at, id, ended_at, ${sql.raw(SQLITE_ACTIVITY_ENTRY)})`.execute(
      db,
    );
  }
  await db.schema.dropIndex('activities_user_started').execute();

  // The oldest running timer of a user or a workspace (started_at read from the index itself: with
  // only activities_one_running_timer, PostgreSQL prefers scanning the user's whole listing index).
  await db.schema
    .createIndex('activities_running_user')
    .on('activities')
    .columns(['user_id', 'started_at'])
    .where(sql.ref('ended_at'), 'is', null)
    .execute();
  await db.schema
    .createIndex('activities_running_organization')
    .on('activities')
    .columns(['organization_id', 'started_at'])
    .where(sql.ref('ended_at'), 'is', null)
    .execute();
}
