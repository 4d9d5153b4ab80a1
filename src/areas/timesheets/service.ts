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
  claimReminderWeek,
  deleteLock,
  findLock,
  findLockContext,
  findLockOfWeek,
  findLockSettings,
  listLocks,
  recordReminderMessages,
  upsertLock,
  userExists,
  workspacesWithAutoLock,
  type ScheduledWorkspace,
} from './repository.js';
import {
  isLockedBy,
  reminderDueWeek,
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
import type { LockCreate, LocksQuery, TimesheetLock, TimesheetReminder } from './schemas.js';

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

/**
 * Locks one user's week outright (unlockedTo null), replacing any record of that week, with its
 * `timesheet.locked` event: an approved week (docs/rules.md §6 Requests). Runs in the caller's
 * transaction, so the approval and the lock commit together or not at all.
 */
export async function lockApprovedWeek(
  trx: Trx,
  approval: { organizationId: string; userId: string; week: IsoWeek; actorId: string },
): Promise<void> {
  const lock = await upsertLock(trx, { organizationId: approval.organizationId, userId: approval.userId, week: approval.week, unlockedTo: null });
  await recordChange(trx, { organizationId: approval.organizationId, type: 'timesheet.locked', actorId: approval.actorId, data: lock });
}

/** PUT /timesheets/auto-lock: records the week to lock, if any (see weekToAutoLock); the organization as it then is. */
export function runAutoLock(db: Db, actor: Actor): Promise<{ organization: Organization; locked: IsoWeek | null }> {
  return autoLock(db, actor.organizationId, actor.userId, new Date());
}

/**
 * The automatic lock's one transaction, run by PUT /timesheets/auto-lock and by the server's schedule:
 * records the week weekToAutoLock names, with a `timesheet.auto_locked` event holding the organization.
 */
async function autoLock(db: Db, organizationId: string, actorId: string | null, now: Date): Promise<{ organization: Organization; locked: IsoWeek | null }> {
  return db.transaction().execute(async (trx) => {
    // Serializes concurrent runs: each reads the recorded week the previous one wrote.
    await lockRowForWrite(trx, 'organizations', organizationId);
    const locked = weekToAutoLock(await findLockSettings(trx, organizationId), now);
    if (locked) await recordAutoLockedWeek(trx, organizationId, locked);
    const organization = await getOrganization(trx, organizationId);
    if (locked) await recordChange(trx, { organizationId, type: 'timesheet.auto_locked', actorId, data: organization });
    return { organization, locked };
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
 * The week counts as reminded of, so the server's schedule does not remind of it again.
 */
export async function sendTimesheetReminders(
  db: Db,
  actor: Actor,
  workspace: Workspace,
  config: Config,
): Promise<{ week: IsoWeek; messages: number }> {
  const { organizationId } = actor;
  return db.transaction().execute(async (trx) => {
    const week = weekOfNextAutoLock(await findLockSettings(trx, organizationId));
    await claimReminderWeek(trx, organizationId, week);
    const messages = await writeReminders(trx, { organizationId, domain: workspace.domain, actorId: actor.userId }, week, config);
    return { week, messages };
  });
}

/** The reminder messages of one week, their count recorded on the week's row and a `timesheet.reminder_sent` event. */
async function writeReminders(
  trx: Trx,
  workspace: { organizationId: string; domain: string; actorId: string | null },
  week: IsoWeek,
  config: Config,
): Promise<number> {
  const { organizationId } = workspace;
  const link = workspaceUrl(config, workspace.domain);
  const dates = datesOfWeek(week);
  const { name } = await getOrganization(trx, organizationId);
  let messages = 0;
  for (const user of await activeUsersWithPreferences(trx, organizationId)) {
    if (!wantsReminderMail(user.preferences)) continue;
    const { subject, body } = reminderOf(week, dates, user, { name, link });
    await enqueueMessage(trx, { organizationId, to: user.email, kind: 'timesheetReminder', subject, body });
    messages++;
  }
  await recordReminderMessages(trx, organizationId, week, messages);
  const reminder: TimesheetReminder = { ...week, messages, sentAt: nowIso() };
  await recordChange(trx, { organizationId, type: 'timesheet.reminder_sent', actorId: workspace.actorId, data: reminder });
  return messages;
}

/** The workspaces the server's timesheet schedule has work for: those with automatic locking enabled. */
export function scheduledWorkspaces(db: Db): Promise<ScheduledWorkspace[]> {
  return workspacesWithAutoLock(db);
}

/**
 * What the server's schedule does for one workspace at `now` (docs/rules.md §6 Timesheet schedule):
 * the automatic lock once its week has elapsed, and the week's reminder once it is due. Each is one
 * transaction that rereads what it depends on, so instances running the same pass at once do each
 * thing once: the lock holds the organization's row, the reminder claims its week's row.
 */
export async function runTimesheetSchedule(
  db: Db,
  config: Config,
  workspace: ScheduledWorkspace,
  now: Date = new Date(),
): Promise<{ locked: IsoWeek | null; reminded: IsoWeek | null }> {
  const { organizationId, domain, coreHoursEnd } = workspace;
  const locked = weekToAutoLock(workspace.settings, now) ? (await autoLock(db, organizationId, null, now)).locked : null;
  // The reminder's week follows the recorded lock, which the lock may just have moved.
  const settings = locked ? { ...workspace.settings, locked } : workspace.settings;
  if (reminderDueWeek(settings, coreHoursEnd, now) === null) return { locked, reminded: null };
  const reminded = await db.transaction().execute(async (trx) => {
    const week = reminderDueWeek(await findLockSettings(trx, organizationId), coreHoursEnd, now);
    if (week === null || !(await claimReminderWeek(trx, organizationId, week))) return null;
    await writeReminders(trx, { organizationId, domain, actorId: null }, week, config);
    return week;
  });
  return { locked, reminded };
}
