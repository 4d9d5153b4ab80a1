import { computed, signal } from '@preact/signals';
import { organization } from './organization.js';
import { requests, type WorkflowRequest } from './requests.js';
import { me } from './session.js';

export const weekKey = (year: number, week: number): string => `${year}-W${String(week).padStart(2, '0')}`;

/**
 * The person's own timesheet requests (unlock, approval), by week: the latest of each kind. An
 * administrator lists everyone's requests; only their own are about their weeks.
 */
export const weekRequests = computed(() => {
  const byWeek: Record<string, { unlock?: WorkflowRequest; approval?: WorkflowRequest }> = {};
  const myId = me.value?.id;
  for (const request of Object.values(requests.value ?? {})) {
    if (request.year === undefined || request.week === undefined || request.createdBy !== myId) continue;
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

/** The person's week was approved: the approval locked it (docs/rules.md §6 Timesheet locks). */
export function weekApproved(year: number, week: number): boolean {
  return weekRequests.value[weekKey(year, week)]?.approval?.status === 'RESOLVED';
}

/** An unlock granted within the workspace's unlock window, and after any approval (which locks again), still holds the week open. */
function unlockedNow(year: number, week: number): boolean {
  const { unlock, approval } = weekRequests.value[weekKey(year, week)] ?? {};
  if (unlock?.status !== 'RESOLVED' || !unlock.resolvedAt) return false;
  if (approval?.status === 'RESOLVED' && approval.resolvedAt && approval.resolvedAt > unlock.resolvedAt) return false;
  const hours = organization.value?.lockingTimesheets.unlockDuration ?? 24;
  return Date.parse(unlock.resolvedAt) + hours * 3_600_000 > Date.now();
}

/**
 * Whether the person's week is closed to their changes (docs/rules.md §6 Timesheet locks): the
 * automatic lock covers it, its approval locked it, or a write was refused with 423, and no granted
 * unlock holds it open. Administrators are never held.
 */
export function weekLocked(year: number, week: number): boolean {
  if (me.value?.role === 'Administrator') return false;
  const lock = organization.value?.lockingTimesheets;
  const auto = !!lock?.enabled && lock.year !== null && lock.week !== null && (year < lock.year || (year === lock.year && week <= lock.week));
  return (auto || weekApproved(year, week) || weeksFoundLocked.value.has(weekKey(year, week))) && !unlockedNow(year, week);
}
