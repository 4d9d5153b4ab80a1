import { ApiError, invalid } from '../../domain/errors.js';
import { DateTime } from 'luxon';
import { compareWeeks, lastElapsedWeek, nextWeek, type IsoWeek } from '../../lib/iso-weeks.js';
import { toUtcIso } from '../../lib/time.js';

/** What the lock rule needs from the organization. */
export interface LockSettings {
  enabled: boolean;
  /** lockingTimesheets.timeZone, else the organization's timeZone, else UTC. */
  timeZone: string;
  unlockDuration: number;
  /** The last week the automatic lock recorded, if any. */
  locked: IsoWeek | null;
}

/**
 * Whether a week is locked for anyone the lock rule holds (docs/rules.md §6): its lock record locks it
 * unless the record's unlockedTo is still ahead of `now`; without a record, the automatic lock locks
 * every week at or before the recorded one while locking is enabled.
 */
export function isLockedBy(settings: LockSettings, week: IsoWeek, record: { unlockedTo: string | null } | undefined, now: string): boolean {
  if (record && record.unlockedTo !== null && record.unlockedTo > now) return false;
  if (record) return true;
  return settings.enabled && settings.locked !== null && compareWeeks(week, settings.locked) <= 0;
}

export const weekLocked = (week: IsoWeek) =>
  new ApiError(
    'timesheet-locked',
    `Week ${week.week} of ${week.year} is locked: ask an administrator to unlock it (POST /requests/timesheets/${week.year}/${week.week}/unlock).`,
  );

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

/** The ISO weekday the server writes a week's reminder on: Friday (docs/rules.md §6 Timesheet schedule). */
export const REMINDER_WEEKDAY = 5;

/**
 * The week whose timesheet reminder is due at `now`, or null: while automatic locking is enabled,
 * the week the next automatic lock closes, from its Friday at the end of the organization's core
 * hours (`coreHoursEnd`, HH:MM) in the lock time zone until that week ends, when the lock takes it.
 * A reminder missed for the whole of that window is not written late: the week is locked by then.
 */
export function reminderDueWeek(settings: LockSettings, coreHoursEnd: string, now: Date = new Date()): IsoWeek | null {
  if (!settings.enabled) return null;
  const week = weekOfNextAutoLock(settings, now);
  const [hour, minute] = coreHoursEnd.split(':').map(Number);
  const due = DateTime.fromObject({ weekYear: week.year, weekNumber: week.week, weekday: REMINDER_WEEKDAY, hour, minute }, { zone: settings.timeZone });
  const end = DateTime.fromObject({ weekYear: week.year, weekNumber: week.week, weekday: 1 }, { zone: settings.timeZone }).plus({ weeks: 1 });
  const at = now.getTime();
  return due.toMillis() <= at && at < end.toMillis() ? week : null;
}

/** A lock's unlockedTo in canonical UTC form (absent or null: none), or 422. */
export function unlockedToOf(text: string | null | undefined): string | null {
  if (text === undefined || text === null) return null;
  const unlockedTo = toUtcIso(text);
  if (unlockedTo === null) throw invalid('/body/unlockedTo', 'must be an ISO 8601 date-time with an offset (Z or ±hh:mm)');
  return unlockedTo;
}

/** The `year` filter of GET /timesheets/locks: four digits, else 422. */
export function yearFilterOf(text: string | undefined): number | undefined {
  if (text === undefined) return undefined;
  if (!/^\d{4}$/.test(text)) throw invalid('/query/year', 'must be a four-digit year');
  return Number(text);
}

export const unknownUser = () => invalid('/body/userId', 'must name a user of this workspace');

/** `notifications.timesheetReminder.email` of a preferences document: only an explicit false turns it off. */
export function wantsReminderMail(preferences: Record<string, unknown>): boolean {
  const notifications = preferences.notifications as Record<string, { email?: unknown } | undefined> | undefined;
  return notifications?.timesheetReminder?.email !== false;
}

/** The reminder one user gets for the week the next automatic lock closes. */
export function reminderOf(
  week: IsoWeek,
  dates: { monday: string; sunday: string },
  user: { name: string | null },
  workspace: { name: string; link: string },
): { subject: string; body: string } {
  return {
    subject: `Please complete your timesheet for week ${week.week} of ${week.year}`,
    body:
      `Hello${user.name ? ` ${user.name}` : ''},\n\n` +
      `week ${week.week} of ${week.year} (${dates.monday} to ${dates.sunday}) will soon be locked in workspace ` +
      `"${workspace.name}". Please check that your time for that week is complete:\n\n${workspace.link}\n`,
  };
}
