import type { Insertable, Updateable } from 'kysely';
import type { Db } from '../../db/database.js';
import { isUniqueViolation } from '../../db/errors.js';
import type { ActivitiesTable } from '../../db/tables/tracking.js';
import { fromDbBool, toDbBool } from '../../db/values.js';
import { conflict, forbidden, invalid, notFound } from '../../domain/errors.js';
import type { Actor, Role } from '../../domain/actor.js';
import { permits, reachesAll } from '../../domain/policy.js';
import { newId } from '../../lib/ids.js';
import { nowIso, toUtcIso } from '../../lib/time.js';
import { findProjectForBooking } from '../projects/index.js';
import { assertActivityWeekOpen } from '../timesheets/index.js';
import {
  administersProject,
  closeTimer,
  deleteActivity as deleteActivityRow,
  findActivity,
  findActivityForUpdate,
  findRunningTimer,
  findUserRole,
  insertActivity,
  toActivity,
  updateActivity as updateActivityRow,
  type ActivityRow,
} from './repository.js';
import type { Activity, ActivityCreate, ActivityUpdate } from './schemas.js';

/** One write of one activity, described before it is made. */
export type ActivityChange =
  | { kind: 'create'; activity: Insertable<ActivitiesTable> & { ended_at: string | null } }
  | { kind: 'update'; before: ActivityRow; changes: Updateable<ActivitiesTable> }
  | { kind: 'delete'; before: ActivityRow };

const anotherTimerRuns = () => conflict('Another timer of this user is running: stop it first.');

/**
 * The only way an activity is written: creation, update and deletion all pass here, inside the
 * caller's transaction, so a rule about the time being written (such as a locked timesheet week,
 * for the old and the new startedAt) has exactly one place to live.
 *
 * One running timer per user: a new timer first closes the owner's running one at the new startedAt,
 * or at the running one's own startedAt when that is later; reopening an activity while another
 * timer of its owner runs is 409. The partial unique index activities_one_running_timer backs both
 * under concurrency: a racing second timer makes the insert or update fail with a unique violation.
 */
export async function writeActivity(trx: Db, change: ActivityChange, actor: Pick<Actor, 'role'>): Promise<void> {
  await assertWeeksOpen(trx, change, actor.role);
  switch (change.kind) {
    case 'create': {
      const { activity } = change;
      if (activity.ended_at === null) {
        const running = await findRunningTimer(trx, activity.organization_id, activity.user_id);
        if (running) {
          const closeAt = running.started_at > activity.started_at ? running.started_at : activity.started_at;
          await closeTimer(trx, activity.organization_id, running.id, closeAt);
        }
      }
      await insertActivity(trx, activity);
      return;
    }
    case 'update': {
      const { before, changes } = change;
      if (changes.ended_at === null && before.ended_at !== null) {
        const running = await findRunningTimer(trx, before.organization_id, before.user_id);
        if (running) throw anotherTimerRuns();
      }
      await updateActivityRow(trx, before.organization_id, before.id, changes);
      return;
    }
    case 'delete':
      await deleteActivityRow(trx, change.before.organization_id, change.before.id);
      return;
  }
}

/**
 * Timesheet locks (decisions §6): the week of the old and of the new startedAt must be open for the
 * activity's user, unless an administrator writes (423 timesheet-locked otherwise). A running timer
 * that a new one closes is not checked: closing it is the one-running-timer rule, not an edit.
 */
async function assertWeeksOpen(trx: Db, change: ActivityChange, role: Role): Promise<void> {
  const row = change.kind === 'create' ? change.activity : change.before;
  const starts = new Set([row.started_at]);
  if (change.kind === 'update' && typeof change.changes.started_at === 'string') starts.add(change.changes.started_at);
  for (const startedAt of starts) {
    await assertActivityWeekOpen(trx, { organizationId: row.organization_id, userId: row.user_id, role, startedAt });
  }
}

/** An instant from the API in canonical UTC form, or 422 at the pointer. */
export function instantOf(text: string, pointer: string): string {
  const instant = toUtcIso(text);
  if (instant === null) throw invalid(pointer, 'must be an ISO 8601 date-time with an offset (Z or ±hh:mm)');
  return instant;
}

/**
 * A query-string instant: as instantOf, reading a space before a trailing `hh:mm` as the `+` it was
 * before form decoding turned it into one (`?from=2026-07-04T10:00:00+02:00` sent unencoded).
 */
export function queryInstantOf(text: string, pointer: string): string {
  return instantOf(text.replace(/ (\d{2}:\d{2})$/, '+$1'), pointer);
}

function nameOf(name: string): string {
  const trimmed = name.trim();
  if (trimmed.length === 0) throw invalid('/body/name', 'must not be blank');
  return trimmed;
}

/**
 * The project an activity of this owner may be booked on (decisions §6): an unarchived project of
 * the workspace the owner is an unarchived member of; an administrator owner may use any unarchived
 * project. Anything else, another workspace's project included, is 422 at /body/projectId.
 */
async function bookableProject(db: Db, organizationId: string, owner: { userId: string; role: Role }, projectId: string) {
  const found = await findProjectForBooking(db, organizationId, projectId, owner.userId);
  if (!found || fromDbBool(found.archived) || (found.member_id === null && !reachesAll(owner, 'projects:book'))) {
    throw invalid('/body/projectId', 'must name an unarchived project the activity\'s user is a member of');
  }
  return found;
}

/** Runs a write once more when it lost a race on the one-running-timer index; a second loss is 409. */
async function retryOnTimerRace<T>(attempt: () => Promise<T>): Promise<T> {
  try {
    return await attempt();
  } catch (error) {
    if (!isUniqueViolation(error)) throw error;
  }
  try {
    return await attempt();
  } catch (error) {
    if (isUniqueViolation(error)) throw conflict('Another timer of this user started at the same moment: try again.');
    throw error;
  }
}

/**
 * Creates an activity for the actor (never for anyone else). A running timer when `pending` is
 * true and endedAt is absent or null; otherwise endedAt is required and may not be before startedAt.
 *
 * Two timers started at once by one user: the loser's insert hits the one-running-timer index, and
 * the whole close-and-open runs once more, now closing the winner's timer, exactly as if the two
 * requests had come one after the other. Both succeed and one timer runs.
 */
export async function createActivity(db: Db, actor: Actor, body: ActivityCreate): Promise<Activity> {
  const startedAt = instantOf(body.startedAt, '/body/startedAt');
  let endedAt: string | null = null;
  if (body.endedAt !== undefined && body.endedAt !== null) {
    endedAt = instantOf(body.endedAt, '/body/endedAt');
    if (endedAt < startedAt) throw invalid('/body/endedAt', 'must not be before startedAt');
  } else if (body.pending !== true) {
    throw invalid('/body/endedAt', 'is required unless pending is true');
  }
  const name = nameOf(body.name);
  const { projectId } = body;
  const id = newId();
  const now = nowIso();
  // The project is read inside the write's transaction: a creation is one transaction (on SQLite, one savepoint of a batch).
  const create = () =>
    db.transaction().execute(async (trx) => {
      const project = projectId == null ? undefined : await bookableProject(trx, actor.organizationId, actor, projectId);
      const activity = {
        id,
        organization_id: actor.organizationId,
        user_id: actor.userId,
        project_id: project?.id ?? null,
        name,
        billable: toDbBool(body.billable ?? (project ? fromDbBool(project.billable) : false)),
        started_at: startedAt,
        ended_at: endedAt,
        created_at: now,
        updated_at: now,
      };
      await writeActivity(trx, { kind: 'create', activity }, actor);
      return activity;
    });
  return toActivity(await (endedAt === null ? retryOnTimerRace(create) : create()));
}

/**
 * The activity when the actor may see it (decisions §5): an admin sees every activity of the
 * workspace; a User their own and those on projects they are a project admin of. Otherwise 404.
 */
export async function visibleActivity(db: Db, actor: Actor, activityId: string): Promise<ActivityRow> {
  return visibleRow(db, actor, await findActivity(db, actor.organizationId, activityId));
}

async function visibleRow(db: Db, actor: Actor, row: ActivityRow | undefined): Promise<ActivityRow> {
  if (!row) throw notFound('activity');
  const { project_id: projectId } = row;
  const projectRelation = () =>
    projectId === null ? null : administersProject(db, actor.userId, projectId).then((yes) => (yes ? ('admin' as const) : null));
  if (await permits(actor, 'activities:read', { ownerId: row.user_id, projectRelation })) return row;
  throw notFound('activity');
}

/**
 * The activity when the actor may change it: the owner or an admin (a project admin who only sees
 * it: 403). Read inside the write's transaction with its row locked: a concurrent change of the same
 * activity waits, then is validated against this one's result, never against the row as it was
 * before (two updates each valid alone could otherwise leave endedAt before startedAt).
 */
async function lockedChangeableActivity(trx: Db, actor: Actor, activityId: string): Promise<ActivityRow> {
  const row = await visibleRow(trx, actor, await findActivityForUpdate(trx, actor.organizationId, activityId));
  if (!permits(actor, 'activities:write', { ownerId: row.user_id })) {
    throw forbidden('Only the activity\'s user and administrators may change it.');
  }
  return row;
}

/**
 * Applies any subset of name, startedAt, endedAt, billable and projectId. endedAt closes a running
 * timer; endedAt null reopens the activity as its owner's timer (409 when another runs). A new
 * projectId must be bookable by the activity's owner; billable is left as it is unless given.
 */
export async function updateActivity(db: Db, actor: Actor, activityId: string, body: ActivityUpdate): Promise<Activity> {
  try {
    return await db.transaction().execute(async (trx) => {
      const before = await lockedChangeableActivity(trx, actor, activityId);
      const changes = await changesOf(trx, actor, before, body);
      await writeActivity(trx, { kind: 'update', before, changes }, actor);
      return toActivity({ ...before, ...changes });
    });
  } catch (error) {
    // Another timer of the owner started between the check and the update.
    if (isUniqueViolation(error)) throw anotherTimerRuns();
    throw error;
  }
}

/** The columns an update body changes, checked against the activity as it is now (422 at the field otherwise). */
async function changesOf(db: Db, actor: Actor, before: ActivityRow, body: ActivityUpdate): Promise<Updateable<ActivitiesTable>> {
  const changes: Updateable<ActivitiesTable> = {};
  if (body.name !== undefined) changes.name = nameOf(body.name);
  if (body.billable !== undefined) changes.billable = toDbBool(body.billable);
  const startedAt = body.startedAt === undefined ? before.started_at : instantOf(body.startedAt, '/body/startedAt');
  let endedAt = before.ended_at;
  if (body.endedAt !== undefined) endedAt = body.endedAt === null ? null : instantOf(body.endedAt, '/body/endedAt');
  if (endedAt !== null && endedAt < startedAt) {
    throw body.endedAt !== undefined && body.endedAt !== null
      ? invalid('/body/endedAt', 'must not be before startedAt')
      : invalid('/body/startedAt', 'must not be after endedAt');
  }
  if (body.startedAt !== undefined) changes.started_at = startedAt;
  if (body.endedAt !== undefined) changes.ended_at = endedAt;
  if (body.projectId !== undefined && body.projectId !== before.project_id) {
    if (body.projectId === null) {
      changes.project_id = null;
    } else {
      const role = before.user_id === actor.userId ? actor.role : await findUserRole(db, actor.organizationId, before.user_id);
      const owner = { userId: before.user_id, role: (role ?? 'User') as Role };
      changes.project_id = (await bookableProject(db, actor.organizationId, owner, body.projectId)).id;
    }
  }
  return changes;
}

export async function deleteActivity(db: Db, actor: Actor, activityId: string): Promise<void> {
  await db.transaction().execute(async (trx) => {
    const before = await lockedChangeableActivity(trx, actor, activityId);
    await writeActivity(trx, { kind: 'delete', before }, actor);
  });
}
