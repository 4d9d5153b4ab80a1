import type { Buffer } from 'node:buffer';
import type { Db, Trx } from '../../db/database.js';
import { rerunAfterUniqueRace, withConstraintProblems } from '../../db/errors.js';
import type { Actor, Role } from '../../domain/actor.js';
import { invalid, notFound } from '../../domain/errors.js';
import { needsProjectRelation, permits, readerScope } from '../../domain/policy.js';
import { newId } from '../../lib/ids.js';
import { nowIso } from '../../lib/time.js';
import { recordChange, type ChangeType } from '../changes/index.js';
import { findProjectForBooking, type ProjectForBooking } from '../projects/index.js';
import { findTagsForBooking } from '../tags/index.js';
import { findTaskForBooking } from '../tasks/index.js';
import { assertActivityWeekOpen } from '../timesheets/index.js';
import { administersProject } from '../../db/record-scopes.js';
import {
  closeTimer,
  deleteActivity as deleteActivityRow,
  findActivity,
  findActivityForUpdate,
  findRunningTimer,
  findUserRole,
  insertActivity,
  insertStagedActivities,
  noteLengths,
  updateActivity as updateActivityRow,
  type ActivityChanges,
} from './repository.js';
import { listActivitiesJson, listActivitiesPage } from './listing-repository.js';
import type { ActivityFilter } from './listing-statement.js';
import type { LaterPieces } from '../../lib/later-pieces.js';
import { andThen, type MaybePromise } from '../../lib/maybe-promise.js';
import {
  anotherTimerRuns,
  assertClosable,
  assertPeriod,
  assertTagsFit,
  assertTaskFits,
  distinctTagIds,
  taskOfOldProject,
  type TaskForBooking,
  changesOfFields,
  isBookable,
  nameOf,
  onlyOwnerChanges,
  plainFieldsOfNew,
  queryInstantOf,
  timersStartedTogether,
  timesOfNew,
  unbookableProject,
} from './rules.js';
import type { Activity, ActivityCreate, ActivityQuery, ActivityUpdate } from './schemas.js';
import { cursorOf, keyOfCursor } from './listing.js';

/** One write of one activity, described before it is made. */
export type ActivityChange =
  | { kind: 'create'; activity: Activity }
  | { kind: 'update'; before: Activity; changes: ActivityChanges }
  | { kind: 'delete'; before: Activity };

/**
 * The only way an activity is written: creation, update and deletion all pass here, inside the
 * caller's transaction, so a rule about the time being written (such as a locked timesheet week,
 * for the old and the new startedAt) has exactly one place to live.
 *
 * One running timer per user: a new timer first closes the owner's running one at the new startedAt,
 * or at the running one's own startedAt when that is later. That close is a change of the running
 * activity and obeys the rules of one (docs/rules.md §6): its week must be open (423) and it may not
 * become longer than the longest activity (422 at /body/startedAt). Reopening an activity while another
 * timer of its owner runs is 409. The partial unique index activities_one_running_timer backs both
 * under concurrency: a racing second timer makes the insert or update fail with a unique violation.
 */
export async function writeActivity(trx: Trx, change: ActivityChange, actor: Pick<Actor, 'organizationId' | 'role' | 'userId'>): Promise<void> {
  const { organizationId } = actor;
  // Each write is one event of the change feed, in this transaction (docs/rules.md §6 Change feed).
  const recorded = (type: ChangeType, data: Activity) => recordChange(trx, { organizationId, type, actorId: actor.userId, data });
  await assertWeeksOpen(trx, change, actor);
  switch (change.kind) {
    case 'create': {
      const { activity } = change;
      if (activity.endedAt === null) {
        const running = await findRunningTimer(trx, organizationId, activity.userId);
        if (running) {
          const closeAt = running.startedAt > activity.startedAt ? running.startedAt : activity.startedAt;
          await assertActivityWeekOpen(trx, { organizationId, userId: running.userId, role: actor.role, startedAt: running.startedAt });
          assertClosable(running, closeAt);
          if (await closeTimer(trx, organizationId, running.id, closeAt)) await recorded('timer.stopped', { ...running, endedAt: closeAt });
        }
      }
      await insertActivity(trx, organizationId, activity);
      await recorded(activity.endedAt === null ? 'timer.started' : 'activity.created', activity);
      return;
    }
    case 'update': {
      const { before, changes } = change;
      if (changes.endedAt === null && before.endedAt !== null) {
        const running = await findRunningTimer(trx, organizationId, before.userId);
        if (running) throw anotherTimerRuns();
      }
      await updateActivityRow(trx, organizationId, before.id, changes);
      await recorded(updateType(before, changes), { ...before, ...changes });
      return;
    }
    case 'delete':
      await deleteActivityRow(trx, organizationId, change.before.id);
      await recorded('activity.deleted', change.before);
      return;
  }
}

/** An update that closes a running timer stops it; one that reopens an activity starts it (docs/rules.md §6 Change feed). */
function updateType(before: Activity, changes: ActivityChanges): ChangeType {
  if (changes.endedAt === undefined || (changes.endedAt === null) === (before.endedAt === null)) return 'activity.updated';
  return changes.endedAt === null ? 'timer.started' : 'timer.stopped';
}

/**
 * Timesheet locks (docs/rules.md §6): the week of the old and of the new startedAt must be open for
 * the activity's user, unless an administrator writes (423 timesheet-locked otherwise). A running
 * timer that a new one closes is checked too, by writeActivity, once it has been read.
 */
async function assertWeeksOpen(trx: Trx, change: ActivityChange, actor: Pick<Actor, 'organizationId' | 'role'>): Promise<void> {
  const activity = change.kind === 'create' ? change.activity : change.before;
  const starts = new Set([activity.startedAt]);
  if (change.kind === 'update' && change.changes.startedAt !== undefined) starts.add(change.changes.startedAt);
  for (const startedAt of starts) {
    await assertActivityWeekOpen(trx, { organizationId: actor.organizationId, userId: activity.userId, role: actor.role, startedAt });
  }
}

/** The project an activity of this owner may be booked on (see isBookable); 422 at /body/projectId otherwise. */
async function bookableProject(trx: Trx, organizationId: string, owner: { userId: string; role: Role }, projectId: string): Promise<ProjectForBooking> {
  const found = await findProjectForBooking(trx, organizationId, projectId, owner.userId);
  if (!found || !isBookable(found, owner)) throw unbookableProject();
  return found;
}

/** The task an activity of this project may carry (see assertTaskFits; `kept`: the activity's task before the write). */
async function usableTask(trx: Trx, organizationId: string, taskId: string, projectId: string | null, kept: string | null): Promise<TaskForBooking> {
  return assertTaskFits(await findTaskForBooking(trx, organizationId, taskId), projectId, kept);
}

/** The body's tags without repeats, when each may be on the activity (see assertTagsFit; `kept`: its tags before the write). */
async function usableTags(trx: Trx, organizationId: string, tagIds: readonly string[], kept: readonly string[]): Promise<string[]> {
  const distinct = distinctTagIds(tagIds);
  assertTagsFit(distinct, await findTagsForBooking(trx, organizationId, distinct), kept);
  return distinct;
}

/** Runs a write once more when it lost a race on the one-running-timer index; a second loss is 409. */
const retryOnTimerRace = <T>(attempt: () => Promise<T>): Promise<T> =>
  withConstraintProblems(() => rerunAfterUniqueRace(attempt, 2), { unique: timersStartedTogether });

/**
 * Creates an activity for the actor (never for anyone else). A running timer when `pending` is
 * true and endedAt is absent or null; otherwise endedAt is required and may not be before startedAt.
 *
 * Two timers started at once by one user: the loser's insert hits the one-running-timer index, and
 * the whole close-and-open runs once more, now closing the winner's timer, exactly as if the two
 * requests had come one after the other. Both succeed and one timer runs.
 */
export async function createActivity(db: Db, actor: Actor, body: ActivityCreate): Promise<Activity> {
  const { startedAt, endedAt } = timesOfNew(body, nowIso());
  const name = nameOf(body.name);
  const { projectId } = body;
  const id = newId();
  // The project is read inside the write's transaction: a creation is one transaction (on SQLite, one savepoint of a batch).
  const create = () =>
    db.transaction().execute(async (trx) => {
      const project = projectId == null ? undefined : await bookableProject(trx, actor.organizationId, actor, projectId);
      const task = body.taskId == null ? undefined : await usableTask(trx, actor.organizationId, body.taskId, project?.id ?? null, null);
      const activity: Activity = {
        ...plainFieldsOfNew(body),
        id,
        name,
        // docs/rules.md §6 Activities: task and tags: the task's billable when it has one, else the project's.
        billable: body.billable ?? task?.billable ?? project?.billable ?? false,
        startedAt,
        endedAt,
        projectId: project?.id ?? null,
        userId: actor.userId,
        taskId: task?.id ?? null,
        tagIds: await usableTags(trx, actor.organizationId, body.tagIds ?? [], []),
      };
      await writeActivity(trx, { kind: 'create', activity }, actor);
      return activity;
    });
  return await (endedAt === null ? retryOnTimerRace(create) : create());
}

/**
 * The activity when the actor may see it (docs/rules.md §5): an admin sees every activity of the
 * workspace; a User their own and those on projects they are a project admin of. Otherwise 404.
 */
export function visibleActivity(db: Db, actor: Actor, activityId: string): MaybePromise<Activity> {
  return andThen(findActivity(db, actor.organizationId, activityId), (activity) => visible(db, actor, activity));
}

/** Answered without a promise unless the actor's relation to the project has to be read. */
function visible(db: Db, actor: Actor, activity: Activity | undefined): MaybePromise<Activity> {
  if (!activity) throw notFound('activity');
  const owner = { ownerId: activity.userId };
  if (permits(actor, 'activities:read', owner)) return activity;
  const { projectId } = activity;
  if (projectId === null || !needsProjectRelation(actor, 'activities:read', owner)) throw notFound('activity');
  return administersProject(db, actor, projectId).then((administers) => {
    if (permits(actor, 'activities:read', { ...owner, projectRelation: administers ? 'admin' : null })) return activity;
    throw notFound('activity');
  });
}

/**
 * The activity when the actor may change it: the owner or an admin (a project admin who only sees
 * it: 403). Read inside the write's transaction with its row locked: a concurrent change of the same
 * activity waits, then is validated against this one's result, never against the row as it was
 * before (two updates each valid alone could otherwise leave endedAt before startedAt).
 */
async function lockedChangeableActivity(trx: Trx, actor: Actor, activityId: string): Promise<Activity> {
  const activity = await visible(trx, actor, await findActivityForUpdate(trx, actor.organizationId, activityId));
  if (!permits(actor, 'activities:write', { ownerId: activity.userId })) throw onlyOwnerChanges();
  return activity;
}

/**
 * Applies any subset of name, startedAt, endedAt, billable, projectId, taskId and tagIds. endedAt
 * closes a running timer; endedAt null reopens the activity as its owner's timer (409 when another
 * runs). A new projectId must be bookable by the activity's owner; billable is left as it is unless given.
 */
export function updateActivity(db: Db, actor: Actor, activityId: string, body: ActivityUpdate): Promise<Activity> {
  return withConstraintProblems(
    () =>
      db.transaction().execute(async (trx) => {
        const before = await lockedChangeableActivity(trx, actor, activityId);
        const changes = await changesOf(trx, actor, before, body);
        await writeActivity(trx, { kind: 'update', before, changes }, actor);
        return { ...before, ...changes };
      }),
    // Another timer of the owner started between the check and the update.
    { unique: anotherTimerRuns },
  );
}

/** What an update body changes, a new project included (bookable by the activity's owner, 422 otherwise). */
async function changesOf(trx: Trx, actor: Actor, before: Activity, body: ActivityUpdate): Promise<ActivityChanges> {
  const changes: ActivityChanges = changesOfFields(before, body, nowIso());
  if (body.projectId !== undefined && body.projectId !== before.projectId) {
    if (body.projectId === null) {
      changes.projectId = null;
    } else {
      const role = before.userId === actor.userId ? actor.role : await findUserRole(trx, actor.organizationId, before.userId);
      const owner = { userId: before.userId, role: (role ?? 'User') as Role };
      changes.projectId = (await bookableProject(trx, actor.organizationId, owner, body.projectId)).id;
    }
  }
  const projectId = changes.projectId === undefined ? before.projectId : changes.projectId;
  if (body.taskId !== undefined) {
    changes.taskId = body.taskId === null ? null : (await usableTask(trx, actor.organizationId, body.taskId, projectId, before.taskId)).id;
  } else if (before.taskId !== null && projectId !== before.projectId) {
    throw taskOfOldProject();
  }
  if (body.tagIds !== undefined) changes.tagIds = await usableTags(trx, actor.organizationId, body.tagIds, before.tagIds);
  return changes;
}

export async function deleteActivity(db: Db, actor: Actor, activityId: string): Promise<void> {
  await db.transaction().execute(async (trx) => {
    const before = await lockedChangeableActivity(trx, actor, activityId);
    await writeActivity(trx, { kind: 'delete', before }, actor);
  });
}

/** A filter given once or repeated, as a list without repeats (undefined when not given). */
const listOf = (value: string | string[] | undefined): string[] | undefined =>
  value === undefined ? undefined : [...new Set(typeof value === 'string' ? [value] : value)];

/** GET /activities: the answer's entries (see listActivitiesJson) and, for a full page, the cursor of the next one. */
export interface ActivityListing {
  entries: Array<Buffer | string> | LaterPieces;
  next?: string;
}

/**
 * GET /activities: the visible activities of the period and filters, as entries the database
 * rendered (see listActivitiesJson). `from` after `to` is 422. With `limit`, one page of at most that
 * many, and the cursor of the next when the page is full; `cursor` continues after the page that gave
 * it (422 at /query/cursor for a text no page gave). Without either, the whole listing as before
 * (docs/rules.md §6, "Listing activities").
 */
export async function listActivities(db: Db, actor: Actor, query: ActivityQuery): Promise<ActivityListing> {
  const filter: ActivityFilter = {
    organizationId: actor.organizationId,
    userId: query.userId,
    projectIds: listOf(query.projectId),
    taskIds: listOf(query.taskId),
    clientIds: listOf(query.clientId),
    tagIds: listOf(query.tagId),
  };
  if (query.from !== undefined) filter.from = queryInstantOf(query.from, '/query/from');
  if (query.to !== undefined) filter.to = queryInstantOf(query.to, '/query/to');
  assertPeriod(filter);
  const after = query.cursor === undefined ? undefined : keyOfCursor(query.cursor);
  if (query.cursor !== undefined && after === undefined) throw invalid('/query/cursor', 'must be a cursor from a Link header of this listing');
  const reader = readerScope(actor, 'activities:read');
  if (query.limit === undefined) return { entries: await listActivitiesJson(db, filter, reader, { after }) };
  const page = await listActivitiesPage(db, filter, reader, { limit: Number(query.limit), after });
  return page.last === undefined ? { entries: page.entries } : { entries: page.entries, next: cursorOf(page.last) };
}

/**
 * Adds the activities an import staged, in the import's transaction (docs/rules.md §6 Imports): an
 * administrator's writes, so locked weeks take them; no change-feed event each (docs/rules.md §6 Imports).
 */
export async function addImportedActivities(
  trx: Trx,
  organizationId: string,
  importId: string,
  longest: ReadonlyArray<{ userId: string; startedAt: string; endedAt: string }>,
): Promise<number> {
  const added = await insertStagedActivities(trx, organizationId, importId);
  await noteImportedLengths(trx, organizationId, longest);
  return added;
}

/**
 * Notes the lengths of activities an import wrote (each user's longest), so that listings look back far
 * enough for them (docs/rules.md §6 Listing activities).
 */
export const noteImportedLengths = (trx: Trx, organizationId: string, longest: ReadonlyArray<{ userId: string; startedAt: string; endedAt: string }>): Promise<void> =>
  noteLengths(trx, organizationId, longest);
