import { workspaceUrl, type Config } from '../../config.js';
import type { Db, Trx } from '../../db/database.js';
import { lockRowForWrite } from '../../db/locks.js';
import type { Actor, Role, Workspace } from '../../domain/actor.js';
import { notFound } from '../../domain/errors.js';
import { holds } from '../../domain/policy.js';
import { assertRealWeek, datesOfWeek, weekOf, type IsoWeek } from '../../lib/iso-weeks.js';
import { addHours, nowIso } from '../../lib/time.js';
import { recordChange } from '../changes/index.js';
import { enqueueMessage } from '../mail/index.js';
import { getOrganization, recordAutoLockedWeek, type Organization } from '../workspace/index.js';
import {
  activeUsersWithPreferences,
  deleteLock,
  findLock,
  findLockContext,
  findLockOfWeek,
  findLockSettings,
  listLocks,
  upsertLock,
  userExists,
} from './repository.js';
import {
  isLockedBy,
  reminderOf,
  unknownUser,
  unlockedToOf,
  wantsReminderMail,
  weekLocked,
  weekOfNextAutoLock,
  weekToAutoLock,
  yearFilterOf,
  type LockSettings,
} from './rules.js';
import type { LockCreate, LocksQuery, TimesheetLock } from './schemas.js';

export interface ActivityTime {
  organizationId: string;
  /** The activity's user: whose timesheet week it is. */
  userId: string;
  /** The role of whoever makes the change: administrators are never held by locks. */
  role: Role;
  /** The activity's startedAt (old or new), canonical UTC ISO. */
  startedAt: string;
}

/**
 * The timesheet lock rule (docs/rules.md §6), the one place it lives. The week of an activity is the
 * ISO week of its startedAt in the lock time zone (lockingTimesheets.timeZone, else the
 * organization's timeZone, else UTC): 23:30 on a Sunday in Europe/Berlin belongs to that Sunday's
 * week although it is still Sunday in UTC. The week is locked for the user when automatic locking
 * is enabled and the week is at or before the recorded lockingTimesheets year/week, or when a lock
 * record exists for the user and week; either way it is open while that record's unlockedTo is in
 * the future. Administrators are never held. A locked week is 423 `timesheet-locked`.
 *
 * Call it inside the transaction of the write, once for the old and once for the new startedAt.
 */
export async function assertActivityWeekOpen(db: Db, time: ActivityTime): Promise<void> {
  if (holds(time.role, 'timesheets:write-locked')) return;
  const settings = await findLockContext(db, time.organizationId, time.userId);
  const autoLocked = settings.enabled && settings.locked !== null;
  if (!autoLocked && !settings.userHasLocks) return; // no week of this user can be locked
  const week = weekOf(time.startedAt, settings.timeZone);
  if (await isWeekLocked(db, settings, time.userId, week, settings.userHasLocks)) throw weekLocked(week);
}

/** Whether one user's week is locked now (for anyone the lock rule holds); `userHasLocks: false` skips reading a record. */
async function isWeekLocked(db: Db, settings: LockSettings, userId: string, week: IsoWeek, userHasLocks: boolean): Promise<boolean> {
  const record = userHasLocks ? await findLockOfWeek(db, userId, week) : undefined;
  return isLockedBy(settings, week, record, nowIso());
}

/**
 * Opens one user's week until now + the workspace's unlockDuration hours, creating the lock record
 * when there is none (a resolved unlock request). Runs in the caller's transaction.
 */
export async function unlockWeek(
  trx: Trx,
  unlock: { organizationId: string; userId: string; week: IsoWeek; now: string; actorId: string },
): Promise<void> {
  const { unlockDuration } = await findLockSettings(trx, unlock.organizationId);
  const lock = await upsertLock(trx, {
    organizationId: unlock.organizationId,
    userId: unlock.userId,
    week: unlock.week,
    unlockedTo: addHours(unlock.now, unlockDuration),
  });
  await recordChange(trx, { organizationId: unlock.organizationId, type: 'timesheet.unlocked', actorId: unlock.actorId, data: lock });
}

/** PUT /timesheets/auto-lock: records the week to lock, if any (see weekToAutoLock); the organization as it then is. */
export async function runAutoLock(db: Db, actor: Actor): Promise<{ organization: Organization; locked: IsoWeek | null }> {
  const { organizationId } = actor;
  return db.transaction().execute(async (trx) => {
    // Serializes concurrent runs: each reads the recorded week the previous one wrote.
    await lockRowForWrite(trx, 'organizations', organizationId);
    const locked = weekToAutoLock(await findLockSettings(trx, organizationId));
    if (locked) await recordAutoLockedWeek(trx, organizationId, locked);
    return { organization: await getOrganization(trx, organizationId), locked };
  });
}

/** Locks one user's ISO week, or replaces the lock of that week (unlockedTo and updatedAt). */
export async function lockWeek(db: Db, actor: Actor, body: LockCreate): Promise<TimesheetLock> {
  const { organizationId } = actor;
  assertRealWeek(body.year, body.week, { year: '/body/year', week: '/body/week' });
  const unlockedTo = unlockedToOf(body.unlockedTo);
  return db.transaction().execute(async (trx) => {
    // Holds the user row, so the user cannot be deleted between the check and the write.
    if (!(await userExists(trx, organizationId, body.userId)) || !(await lockRowForWrite(trx, 'users', body.userId))) {
      throw unknownUser();
    }
    const lock = await upsertLock(trx, { organizationId, userId: body.userId, week: { year: body.year, week: body.week }, unlockedTo });
    // A lock whose unlockedTo is still ahead leaves the week open for now (docs/rules.md §6 Change feed).
    const type = lock.unlockedTo != null && lock.unlockedTo > nowIso() ? 'timesheet.unlocked' : 'timesheet.locked';
    await recordChange(trx, { organizationId, type, actorId: actor.userId, data: lock });
    return lock;
  });
}

export async function removeLock(db: Db, actor: Actor, lockId: string): Promise<void> {
  const { organizationId } = actor;
  await db.transaction().execute(async (trx) => {
    const lock = await findLock(trx, organizationId, lockId);
    if (!lock || !(await deleteLock(trx, organizationId, lockId))) throw notFound('timesheet lock');
    await recordChange(trx, { organizationId, type: 'timesheet.lock_removed', actorId: actor.userId, data: lock });
  });
}

export async function workspaceLocks(db: Db, actor: Actor, query: LocksQuery): Promise<TimesheetLock[]> {
  const { userId } = query;
  const year = yearFilterOf(query.year);
  return listLocks(db, {
    organizationId: actor.organizationId,
    ...(userId !== undefined ? { userId } : {}),
    ...(year !== undefined ? { year } : {}),
  });
}

/**
 * POST /timesheets/reminder: a `timesheetReminder` message to every unarchived user who has not
 * turned it off, for the week the next automatic lock closes; that week and how many were written.
 */
export async function sendTimesheetReminders(
  db: Db,
  actor: Actor,
  workspace: Workspace,
  config: Config,
): Promise<{ week: IsoWeek; messages: number }> {
  const { organizationId } = actor;
  const link = workspaceUrl(config, workspace.domain);
  return db.transaction().execute(async (trx) => {
    const week = weekOfNextAutoLock(await findLockSettings(trx, organizationId));
    const dates = datesOfWeek(week);
    const { name } = await getOrganization(trx, organizationId);
    let messages = 0;
    for (const user of await activeUsersWithPreferences(trx, organizationId)) {
      if (!wantsReminderMail(user.preferences)) continue;
      const { subject, body } = reminderOf(week, dates, user, { name, link });
      await enqueueMessage(trx, { organizationId, to: user.email, kind: 'timesheetReminder', subject, body });
      messages++;
    }
    return { week, messages };
  });
}
