import { CompiledQuery, type Selectable } from 'kysely';
import { dialectOf, type Db } from '../../db/database.js';
import { ACTIVITY_LENGTH_FLOOR_SECONDS } from '../../db/frozen/activity-listing.js';
import type { ActivitiesTable } from '../../db/tables/tracking.js';

/*
 * activity_length_bounds: each user's longest activity past a day, kept in the writer's transaction,
 * so that GET /activities can bound the rows it reads for a `from` (listing-statement.ts fromBound).
 */

/** What the bound of an activity's user is kept from: its user and its times, as stored. */
export type Timed = Pick<Selectable<ActivitiesTable>, 'organization_id' | 'user_id' | 'started_at' | 'ended_at'>;

/**
 * Keeps activity_length_bounds: an activity that ends more than a day after it starts raises its
 * user's longest length, which GET /activities subtracts from `from` to bound the rows it reads
 * (activityListStatement). Every write that gives an activity an end or moves it calls this, in the
 * writer's transaction, so a listing never sees the activity without its bound. A deleted,
 * shortened or moved activity that was the longest lowers it again (forgetLength).
 */
export async function noteLength(db: Db, row: Timed): Promise<void> {
  const seconds = lengthSeconds(row);
  if (!(seconds > ACTIVITY_LENGTH_FLOOR_SECONDS)) return;
  await db
    .insertInto('activity_length_bounds')
    .values({ user_id: row.user_id, organization_id: row.organization_id, longest_seconds: seconds })
    .onConflict((conflict) =>
      conflict
        .column('user_id')
        .doUpdateSet({ longest_seconds: (eb) => eb.ref('excluded.longest_seconds') })
        .where('activity_length_bounds.longest_seconds', '<', seconds),
    )
    .execute();
}

/** A closed activity's length in whole seconds, rounded up (0 for a running timer): the unit of activity_length_bounds. */
const lengthSeconds = (row: Pick<Timed, 'started_at' | 'ended_at'>): number =>
  row.ended_at === null ? 0 : Math.ceil((Date.parse(row.ended_at) - Date.parse(row.started_at)) / 1000);

/**
 * The same length as lengthSeconds, computed by the store over canonical instants (the milliseconds
 * taken from the text, so that both agree to the second).
 */
const LENGTH_SECONDS_SQL = {
  postgres: 'ceil(extract(epoch from (ended_at::timestamptz - started_at::timestamptz)))::bigint',
  sqlite:
    "((strftime('%s', ended_at) - strftime('%s', started_at)) * 1000" +
    ' + cast(substr(ended_at, 21, 3) as integer) - cast(substr(started_at, 21, 3) as integer) + 999) / 1000',
} as const;

const LONGEST_OF_USER = {
  postgres: `select max(${LENGTH_SECONDS_SQL.postgres}) as longest from activities where user_id = $1 and ended_at is not null`,
  sqlite: `select max(${LENGTH_SECONDS_SQL.sqlite}) as longest from activities where user_id = ? and ended_at is not null`,
} as const;

/**
 * Called with an activity's times before it was deleted or its times changed, in the writer's
 * transaction: when that activity was its user's longest (its length reaches the recorded bound),
 * the bound is computed again from the user's activities (read from activities_user_listing, which
 * holds both instants), and dropped when none is longer than a day. So the `from` bound of
 * GET /activities follows the data: one long activity, once gone, no longer widens the listings.
 */
export async function forgetLength(db: Db, row: Timed): Promise<void> {
  const seconds = lengthSeconds(row);
  if (!(seconds > ACTIVITY_LENGTH_FLOOR_SECONDS)) return;
  const recorded = await db
    .selectFrom('activity_length_bounds')
    .select('longest_seconds')
    .where('user_id', '=', row.user_id)
    .executeTakeFirst();
  if (recorded === undefined || seconds < Number(recorded.longest_seconds)) return;
  const found = await db.executeQuery<{ longest: number | string | null }>(CompiledQuery.raw(LONGEST_OF_USER[dialectOf(db)], [row.user_id]));
  const longest = Number(found.rows[0]?.longest ?? 0);
  if (longest > ACTIVITY_LENGTH_FLOOR_SECONDS) {
    await db.updateTable('activity_length_bounds').set({ longest_seconds: longest }).where('user_id', '=', row.user_id).execute();
  } else {
    await db.deleteFrom('activity_length_bounds').where('user_id', '=', row.user_id).execute();
  }
}
