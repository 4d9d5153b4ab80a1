import { api, type Problem, type Schemas } from '../api/client.js';
import { announceChange } from './changes.js';

export type TimesheetLock = Schemas['TimesheetLock'];

/** One person's timesheet lock records (administrators), oldest week first. */
export async function loadLocksOf(userId: string): Promise<TimesheetLock[]> {
  const answer = await api.GET('/timesheets/locks', { params: { query: { userId } } });
  return Object.values(answer.data ?? {}).sort((a, b) => a.year - b.year || a.week - b.week);
}

/** Locks one person's ISO week outright (POST /timesheets/lock without unlockedTo). */
export async function lockWeekOf(userId: string, year: number, week: number): Promise<{ error?: Problem }> {
  const answer = await api.POST('/timesheets/lock', { body: { userId, year, week } });
  if (!answer.error) announceChange();
  return answer;
}

/** Removes a lock record: the week is then locked only if the automatic lock covers it. */
export async function unlockLock(lockId: string): Promise<{ error?: Problem }> {
  const answer = await api.DELETE('/timesheets/lock/{lockId}', { params: { path: { lockId } } });
  if (!answer.error) announceChange();
  return answer;
}
