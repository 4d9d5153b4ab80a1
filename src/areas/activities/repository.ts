import { sql, type Selectable, type Updateable } from 'kysely';
import { dialectOf, type Db, type Trx } from '../../db/database.js';
import { fixedStatement } from '../../db/fixed-statement.js';
import { recordOfRow, rowOfRecord } from '../../db/record-rows.js';
import type { ActivitiesTable } from '../../db/tables/tracking.js';
import { nowIso } from '../../lib/time.js';
import { andThen, type MaybePromise } from '../../lib/maybe-promise.js';
import { ACTIVITY_FIELDS } from './columns.js';
import { forgetLength, noteLength } from './length-bounds-repository.js';
import type { Activity } from './schemas.js';

/*
 * The CRUD of activities: each row mapped to its record by the Activity schema's fields and their
 * columns (columns.ts). The listing is in listing-repository.ts, the length bounds in length-bounds-repository.ts.
 */

type ActivityRow = Selectable<ActivitiesTable>;

/** The fields an update of an activity changes: only those present (its id and its user never change). */
export type ActivityChanges = Partial<Omit<Activity, 'id' | 'userId'>>;

const FIND_ACTIVITY = fixedStatement<ActivityRow>('select * from activities where id = ? and organization_id = ?');
const FIND_RUNNING_TIMER = fixedStatement<ActivityRow>('select * from activities where user_id = ? and ended_at is null and organization_id = ?');
/** Every column of the record, then the workspace and the timestamps: the insert's columns, in the order its values are bound. */
const INSERT_COLUMNS = [...ACTIVITY_FIELDS.map((field) => field.column), 'organization_id', 'created_at', 'updated_at'];
const INSERT_ACTIVITY = fixedStatement(`insert into activities (${INSERT_COLUMNS.join(', ')}) values (${INSERT_COLUMNS.map(() => '?').join(', ')})`);

/** At once, without a promise, when the store answers at once (fixedStatement). */
export function findActivity(db: Db, organizationId: string, activityId: string): MaybePromise<Activity | undefined> {
  return andThen(FIND_ACTIVITY(db, [activityId, organizationId]), (rows) => rows[0] && toActivity(rows[0]));
}

const FIND_ACTIVITY_FOR_UPDATE = fixedStatement<ActivityRow>('select * from activities where id = ? and organization_id = ? for update');

/**
 * The activity, its row locked for the rest of the transaction: FOR UPDATE on PostgreSQL; a SQLite
 * transaction holds the file's write lock from its start (see lockRowForWrite), so a plain read.
 */
export async function findActivityForUpdate(db: Db, organizationId: string, activityId: string): Promise<Activity | undefined> {
  const statement = dialectOf(db) === 'postgres' ? FIND_ACTIVITY_FOR_UPDATE : FIND_ACTIVITY;
  const row = (await statement(db, [activityId, organizationId]))[0];
  return row && toActivity(row);
}

/** The user's running timer, if any (activities_one_running_timer: a partial unique index on user_id). */
export async function findRunningTimer(db: Db, organizationId: string, userId: string): Promise<Activity | undefined> {
  const row = (await FIND_RUNNING_TIMER(db, [userId, organizationId]))[0];
  return row && toActivity(row);
}

export async function insertActivity(db: Db, organizationId: string, activity: Activity): Promise<void> {
  const now = nowIso();
  const row = rowOfRecord(ACTIVITY_FIELDS, activity);
  await INSERT_ACTIVITY(db, [...ACTIVITY_FIELDS.map(({ column }) => row[column] ?? null), organizationId, now, now]);
  await linkTags(db, organizationId, activity.id, activity.tagIds);
  await noteLength(db, { organization_id: organizationId, user_id: activity.userId, started_at: activity.startedAt, ended_at: activity.endedAt });
}

export async function updateActivity(db: Db, organizationId: string, activityId: string, changes: ActivityChanges): Promise<void> {
  const set: Updateable<ActivitiesTable> = { ...rowOfRecord(ACTIVITY_FIELDS, changes), updated_at: nowIso() };
  const query = db.updateTable('activities').set(set).where('id', '=', activityId).where('organization_id', '=', organizationId);
  if (changes.tagIds !== undefined) {
    await db.deleteFrom('activity_tags').where('activity_id', '=', activityId).execute();
    await linkTags(db, organizationId, activityId, changes.tagIds);
  }
  if (changes.startedAt === undefined && changes.endedAt === undefined) {
    await query.execute();
    return;
  }
  const before = (await FIND_ACTIVITY(db, [activityId, organizationId]))[0];
  const after = await query.returning(['organization_id', 'user_id', 'started_at', 'ended_at']).executeTakeFirst();
  if (after) await noteLength(db, after);
  if (before) await forgetLength(db, before);
}

/** The activity's rows in activity_tags, the same links as its tag_ids (migration 0019). */
async function linkTags(db: Db, organizationId: string, activityId: string, tagIds: readonly string[]): Promise<void> {
  if (tagIds.length === 0) return;
  await db
    .insertInto('activity_tags')
    .values(tagIds.map((tagId) => ({ activity_id: activityId, tag_id: tagId, organization_id: organizationId })))
    .execute();
}

/** Stops a timer unless someone stopped it first; true when this call stopped it. */
export async function closeTimer(db: Db, organizationId: string, activityId: string, endedAt: string): Promise<boolean> {
  const closed = await db
    .updateTable('activities')
    .set({ ended_at: endedAt, updated_at: nowIso() })
    .where('id', '=', activityId)
    .where('ended_at', 'is', null)
    .where('organization_id', '=', organizationId)
    .returning(['organization_id', 'user_id', 'started_at', 'ended_at'])
    .executeTakeFirst();
  if (closed) await noteLength(db, closed);
  return closed !== undefined;
}

export async function deleteActivity(db: Db, organizationId: string, activityId: string): Promise<boolean> {
  const deleted = await db
    .deleteFrom('activities')
    .where('id', '=', activityId)
    .where('organization_id', '=', organizationId)
    .returning(['organization_id', 'user_id', 'started_at', 'ended_at'])
    .executeTakeFirst();
  if (deleted) await forgetLength(db, deleted);
  return deleted !== undefined;
}

/** The user's role in the workspace (the owner of an activity an admin edits). */
export async function findUserRole(db: Db, organizationId: string, userId: string): Promise<string | undefined> {
  const row = await db
    .selectFrom('users')
    .select('role')
    .where('id', '=', userId)
    .where('organization_id', '=', organizationId)
    .executeTakeFirst();
  return row?.role;
}

const toActivity = (row: ActivityRow): Activity => recordOfRow<Activity>(ACTIVITY_FIELDS, row);

/**
 * The entries an import staged, inserted as activities in one statement of the import's transaction
 * (docs/rules.md §6 Imports), with their tag links; answers how many.
 */
export async function insertStagedActivities(trx: Trx, organizationId: string, importId: string): Promise<number> {
  const now = nowIso();
  const inserted = await sql`insert into activities (id, organization_id, user_id, project_id, task_id, name, billable, started_at, ended_at, tag_ids, created_at, updated_at)
    select id, organization_id, user_id, project_id, task_id, name, billable, started_at, ended_at, tag_ids, ${now}, ${now}
    from import_entries where import_id = ${importId} and organization_id = ${organizationId}`.execute(trx);
  const tagLinks =
    dialectOf(trx) === 'postgres'
      ? sql`insert into activity_tags (activity_id, tag_id, organization_id)
          select e.id, t.value, e.organization_id from import_entries e cross join lateral jsonb_array_elements_text(e.tag_ids::jsonb) as t(value)
          where e.import_id = ${importId} and e.tag_ids <> '[]'`
      : sql`insert into activity_tags (activity_id, tag_id, organization_id)
          select e.id, t.value, e.organization_id from import_entries e, json_each(e.tag_ids) t
          where e.import_id = ${importId} and e.tag_ids <> '[]'`;
  await tagLinks.execute(trx);
  return Number(inserted.numAffectedRows ?? 0);
}

/** Imported activities' lengths, each user's longest, noted for the look-back of listings (activity_length_bounds). */
export async function noteLengths(trx: Trx, organizationId: string, longest: ReadonlyArray<{ userId: string; startedAt: string; endedAt: string }>): Promise<void> {
  for (const entry of longest) await noteLength(trx, { organization_id: organizationId, user_id: entry.userId, started_at: entry.startedAt, ended_at: entry.endedAt });
}
