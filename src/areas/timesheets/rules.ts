import type { Db } from '../../db/database.js';
import { ApiError } from '../../domain/errors.js';
import type { Role } from '../../domain/actor.js';
import { holds } from '../../domain/policy.js';
import { addHours, nowIso } from '../../lib/time.js';
import { findLockContext, findLockOfWeek, findLockSettings, upsertLock, type LockSettings } from './repository.js';
import { compareWeeks, lastElapsedWeek, nextWeek, weekOf, type IsoWeek } from '../../lib/iso-weeks.js';

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
 * The timesheet lock rule (decisions §6), the one place it lives. The week of an activity is the
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
  if (await isWeekLocked(db, settings, time.userId, week, settings.userHasLocks)) {
    throw new ApiError(
      'timesheet-locked',
      `Week ${week.week} of ${week.year} is locked: ask an administrator to unlock it (POST /requests/timesheets/${week.year}/${week.week}/unlock).`,
    );
  }
}

/** Whether one user's week is locked now (for anyone the lock rule holds); `userHasLocks: false` skips reading a record. */
export async function isWeekLocked(db: Db, settings: LockSettings, userId: string, week: IsoWeek, userHasLocks = true): Promise<boolean> {
  const record = userHasLocks ? await findLockOfWeek(db, userId, week) : undefined;
  if (record && record.unlocked_to !== null && record.unlocked_to > nowIso()) return false;
  if (record) return true;
  return settings.enabled && settings.locked !== null && compareWeeks(week, settings.locked) <= 0;
}

/**
 * What PUT /timesheets/auto-lock records: the last fully elapsed week in the lock time zone, when
 * locking is enabled and that week is later than the recorded one (or none is recorded). Recording
 * the latest week closes every week before it too, so a run that was missed for a while catches up
 * at once. Null when nothing changes.
 */
export function weekToAutoLock(settings: LockSettings, now: Date = new Date()): IsoWeek | null {
  if (!settings.enabled) return null;
  const last = lastElapsedWeek(settings.timeZone, now);
  return settings.locked === null || compareWeeks(last, settings.locked) > 0 ? last : null;
}

/**
 * The week the next automatic lock will close, which POST /timesheets/reminder reminds users of: the
 * last fully elapsed week when the recorded lock is behind it (or none is recorded), else the week
 * after the recorded one (normally the current week).
 */
export function weekOfNextAutoLock(settings: LockSettings, now: Date = new Date()): IsoWeek {
  const last = lastElapsedWeek(settings.timeZone, now);
  return settings.locked === null || compareWeeks(settings.locked, last) < 0 ? last : nextWeek(settings.locked);
}

/**
 * Opens one user's week until now + the workspace's unlockDuration hours, creating the lock record
 * when there is none (a resolved unlock request). Runs in the caller's transaction.
 */
export async function unlockWeek(trx: Db, unlock: { organizationId: string; userId: string; week: IsoWeek; now: string }): Promise<void> {
  const { unlockDuration } = await findLockSettings(trx, unlock.organizationId);
  await upsertLock(trx, {
    organizationId: unlock.organizationId,
    userId: unlock.userId,
    week: unlock.week,
    unlockedTo: addHours(unlock.now, unlockDuration),
  });
}
