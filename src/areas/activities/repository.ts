import { expressionBuilder, type Expression, type Insertable, type Selectable, type SqlBool, type Updateable } from 'kysely';
import type { Database } from '../../db/schema.js';
import type { Db } from '../../db/database.js';
import type { ActivitiesTable } from '../../db/tables/tracking.js';
import { fromDbBool, toDbBool } from '../../db/values.js';
import { nowIso } from '../../lib/time.js';
import { PROJECT_ADMIN_ROLE } from '../projects/rules.js';
import type { Activity } from './schemas.js';

export type ActivityRow = Selectable<ActivitiesTable>;

/** GET /activities: the workspace, the period (canonical UTC instants) and the optional filters. */
export interface ActivityFilter {
  organizationId: string;
  /** Keeps activities ending after it; running timers always match. */
  from?: string;
  /** Keeps activities starting before it. */
  to?: string;
  userId?: string;
  projectId?: string;
}

/** Whose activities the reader may see: all of the workspace (admin), or their own plus those of projects they administer. */
export type ActivityReader = { all: true } | { all: false; userId: string };

const columns = ['id', 'user_id', 'project_id', 'name', 'billable', 'started_at', 'ended_at'] as const;
type ListedRow = Pick<ActivityRow, (typeof columns)[number]>;

/**
 * The visible activities of a period, ordered by started_at then id.
 *
 * Which index serves which query (migration 0002); in each, an equality picks the slice, `to` bounds
 * its started_at range, and the range is read in started_at order:
 * - an administrator's whole workspace: activities_organization_started (organization_id, started_at);
 * - `userId`, and a User's own activities: activities_user_started (user_id, started_at);
 * - `projectId`: activities_project_started (project_id, started_at);
 * - the activities of the projects a User administers: project_members_user (user_id) finds the
 *   projects, then activities_project_started each one's activities.
 * The workspace is enforced on every branch: directly on activities.organization_id for the whole
 * workspace, otherwise through the scoping row (the user, the project or the membership must be of
 * this workspace). Comparing activities.organization_id there too would tempt both planners into the
 * workspace-wide index instead of the user's or project's, which is the narrower one.
 * `from` (ended after it, or still running) is checked on the rows of that range: no index orders
 * activities by their end, and an activity's length has no upper bound that could turn `from` into a
 * started_at bound.
 */
export async function listActivities(db: Db, filter: ActivityFilter, reader: ActivityReader): Promise<ListedRow[]> {
  return activityListQuery(db, filter, reader).execute();
}

/** The statement of listActivities, unexecuted (tests read its query plan). */
export function activityListQuery(db: Db, filter: ActivityFilter, reader: ActivityReader) {
  const { organizationId } = filter;
  const eb = expressionBuilder<Database, 'activities'>();
  const conditions: Expression<SqlBool>[] = [];
  if (filter.to !== undefined) conditions.push(eb('activities.started_at', '<', filter.to));
  if (filter.from !== undefined) {
    conditions.push(eb.or([eb('activities.ended_at', 'is', null), eb('activities.ended_at', '>', filter.from)]));
  }
  if (filter.userId !== undefined) {
    const user = eb.selectFrom('users').select('users.id').where('users.id', '=', filter.userId).where('users.organization_id', '=', organizationId);
    conditions.push(eb('activities.user_id', '=', user));
  }
  if (filter.projectId !== undefined) {
    const project = eb
      .selectFrom('projects')
      .select('projects.id')
      .where('projects.id', '=', filter.projectId)
      .where('projects.organization_id', '=', organizationId);
    conditions.push(eb('activities.project_id', '=', project));
  }
  const scoped = filter.userId !== undefined || filter.projectId !== undefined;
  const select = () => db.selectFrom('activities').select(columns);

  if (reader.all) {
    const query = scoped ? select() : select().where('activities.organization_id', '=', organizationId);
    return query.where(eb.and(conditions)).orderBy('started_at').orderBy('id');
  }

  // A User: their own activities (the caller is a user of this workspace), plus others' activities on
  // the projects they are a project admin of (leaving out their own, so UNION ALL repeats nothing).
  const own = select().where('activities.user_id', '=', reader.userId).where(eb.and(conditions));
  const administeredProjects = eb
    .selectFrom('project_members')
    .select('project_members.project_id')
    .where('project_members.user_id', '=', reader.userId)
    .where('project_members.role', '=', PROJECT_ADMIN_ROLE)
    .where('project_members.archived', '=', toDbBool(false))
    .where('project_members.organization_id', '=', organizationId);
  const administered = select()
    .where('activities.project_id', 'in', administeredProjects)
    .where('activities.user_id', '!=', reader.userId)
    .where(eb.and(conditions));
  const wantsOwn = filter.userId === undefined || filter.userId === reader.userId;
  const wantsOthers = filter.userId !== reader.userId;
  const query = wantsOwn && wantsOthers ? own.unionAll(administered) : wantsOwn ? own : administered;
  return query.orderBy('started_at').orderBy('id');
}

export async function findActivity(db: Db, organizationId: string, activityId: string): Promise<ActivityRow | undefined> {
  return db
    .selectFrom('activities')
    .selectAll()
    .where('id', '=', activityId)
    .where('organization_id', '=', organizationId)
    .executeTakeFirst();
}

/** The user's running timer, if any (activities_one_running_timer: a partial unique index on user_id). */
export async function findRunningTimer(db: Db, organizationId: string, userId: string): Promise<ActivityRow | undefined> {
  return db
    .selectFrom('activities')
    .selectAll()
    .where('user_id', '=', userId)
    .where('ended_at', 'is', null)
    .where('organization_id', '=', organizationId)
    .executeTakeFirst();
}

export async function insertActivity(db: Db, row: Insertable<ActivitiesTable>): Promise<void> {
  await db.insertInto('activities').values(row).execute();
}

export async function updateActivity(
  db: Db,
  organizationId: string,
  activityId: string,
  changes: Updateable<ActivitiesTable>,
): Promise<void> {
  await db
    .updateTable('activities')
    .set({ ...changes, updated_at: nowIso() })
    .where('id', '=', activityId)
    .where('organization_id', '=', organizationId)
    .execute();
}

/** Stops a timer unless someone stopped it first; true when this call stopped it. */
export async function closeTimer(db: Db, organizationId: string, activityId: string, endedAt: string): Promise<boolean> {
  const result = await db
    .updateTable('activities')
    .set({ ended_at: endedAt, updated_at: nowIso() })
    .where('id', '=', activityId)
    .where('ended_at', 'is', null)
    .where('organization_id', '=', organizationId)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

export async function deleteActivity(db: Db, organizationId: string, activityId: string): Promise<boolean> {
  const result = await db
    .deleteFrom('activities')
    .where('id', '=', activityId)
    .where('organization_id', '=', organizationId)
    .executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}

/** Whether the reader administers the project (an unarchived member with role Administrator). */
export async function administersProject(db: Db, userId: string, projectId: string): Promise<boolean> {
  const row = await db
    .selectFrom('project_members')
    .select('id')
    .where('project_id', '=', projectId)
    .where('user_id', '=', userId)
    .where('role', '=', PROJECT_ADMIN_ROLE)
    .where('archived', '=', toDbBool(false))
    .executeTakeFirst();
  return row !== undefined;
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

export function toActivity(row: ListedRow): Activity {
  return {
    id: row.id,
    name: row.name,
    billable: fromDbBool(row.billable),
    startedAt: row.started_at,
    endedAt: row.ended_at,
    projectId: row.project_id,
    userId: row.user_id,
  };
}
