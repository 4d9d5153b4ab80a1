import { computed, signal } from '@preact/signals';
import { organization } from './organization.js';
import { requests, type WorkflowRequest } from './requests.js';
import { me } from './session.js';

export const weekKey = (year: number, week: number): string => `${year}-W${String(week).padStart(2, '0')}`;

/** The timesheet requests (unlock, approval) the person may list, by week: the latest of each kind. */
export const weekRequests = computed(() => {
  const byWeek: Record<string, { unlock?: WorkflowRequest; approval?: WorkflowRequest }> = {};
  for (const request of Object.values(requests.value ?? {})) {
    if (request.year === undefined || request.week === undefined) continue;
    const entry = (byWeek[weekKey(request.year, request.week)] ??= {});
    if (request.type === 'timesheetUnlock') entry.unlock = request;
    if (request.type === 'timesheetApproval') entry.approval = request;
  }
  return byWeek;
});

/** Weeks the API answered 423 for: locked by a record the person cannot list (only administrators can). */
export const weeksFoundLocked = signal<Set<string>>(new Set());

export function noteLockedWeek(year: number, week: number): void {
  weeksFoundLocked.value = new Set([...weeksFoundLocked.value, weekKey(year, week)]);
}

/** An unlock granted within the workspace's unlock window still holds the week open. */
function unlockedNow(year: number, week: number): boolean {
  const unlock = weekRequests.value[weekKey(year, week)]?.unlock;
  if (unlock?.status !== 'RESOLVED' || !unlock.resolvedAt) return false;
  const hours = organization.value?.lockingTimesheets.unlockDuration ?? 24;
  return Date.parse(unlock.resolvedAt) + hours * 3_600_000 > Date.now();
}

/**
 * Whether the person's week is closed to their changes (docs/rules.md §6 Timesheet locks): the
 * automatic lock covers it, or a write was refused with 423, and no granted unlock holds it open.
 * Administrators are never held.
 */
export function weekLocked(year: number, week: number): boolean {
  if (me.value?.role === 'Administrator') return false;
  const lock = organization.value?.lockingTimesheets;
  const auto = !!lock?.enabled && lock.year !== null && lock.week !== null && (year < lock.year || (year === lock.year && week <= lock.week));
  return (auto || weeksFoundLocked.value.has(weekKey(year, week))) && !unlockedNow(year, week);
}
