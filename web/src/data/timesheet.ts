import { signal } from '@preact/signals';
import { api, type Activity } from '../api/client.js';
import { addDays, dayKey, dayOf, isoWeek, zonedInstant } from '../lib/time.js';
import { announceChange } from './changes.js';
import { formats } from './preferences.js';
import { projects } from './projects.js';
import { me } from './session.js';
import { noteLockedWeek } from './weeks.js';

/** The row of activities without a project. */
export const NO_PROJECT = '';

/** The person's finished activities in the week the timesheet shows. */
export const timesheetWeek = signal<Activity[]>([]);

export async function loadTimesheetWeek(monday: Date): Promise<void> {
  const tz = formats.value.timeZone;
  const userId = me.value!.id;
  const answer = await api.GET('/activities', {
    params: { query: { from: zonedInstant(monday, 0, 0, tz).toISOString(), to: zonedInstant(addDays(monday, 7), 0, 0, tz).toISOString(), userId } },
  });
  if (answer.data) timesheetWeek.value = Object.values(answer.data).filter((a) => a.endedAt !== null && a.userId === userId);
}

export const lengthOf = (a: Activity) => Date.parse(a.endedAt!) - Date.parse(a.startedAt);

/**
 * Makes the person's time on a project and day add up to `minutes`: more extends the day's last
 * entry on it (or records one from 09:00), less shortens entries from the last, deleting those it
 * uses up (docs/web-app.md). The API's message when a write is refused; the other tabs are told either way.
 */
export async function setCell(projectId: string, day: Date, minutes: number): Promise<string | null> {
  const problem = await writeCell(projectId, day, minutes);
  announceChange();
  return problem;
}

async function writeCell(projectId: string, day: Date, minutes: number): Promise<string | null> {
  const tz = formats.value.timeZone;
  const items = timesheetWeek.value
    .filter((a) => (a.projectId ?? NO_PROJECT) === projectId && dayKey(dayOf(Date.parse(a.startedAt), tz)) === dayKey(day))
    .sort((a, b) => Date.parse(a.startedAt) - Date.parse(b.startedAt));
  let delta = minutes * 60_000 - items.reduce((sum, a) => sum + lengthOf(a), 0);
  if (delta === 0) return null;
  const failed = (error: { status: number; detail: string } | undefined) => {
    if (!error) return null;
    if (error.status === 423) noteLockedWeek(isoWeek(day).year, isoWeek(day).week);
    return error.detail;
  };
  if (delta > 0) {
    const last = items.at(-1);
    if (last) {
      const answer = await api.PUT('/activities/{activityId}', { params: { path: { activityId: last.id } }, body: { endedAt: new Date(Date.parse(last.endedAt!) + delta).toISOString() } });
      return failed(answer.error);
    }
    const project = projectId === NO_PROJECT ? null : projects.value[projectId];
    const startedAt = zonedInstant(day, 9, 0, tz);
    const answer = await api.POST('/activities', {
      body: { name: project?.name ?? 'Timesheet', projectId: project?.id ?? null, billable: project?.billable ?? false, startedAt: startedAt.toISOString(), endedAt: new Date(startedAt.getTime() + delta).toISOString() },
    });
    return failed(answer.error);
  }
  for (const item of [...items].reverse()) {
    if (delta === 0) break;
    const answer =
      lengthOf(item) <= -delta
        ? await api.DELETE('/activities/{activityId}', { params: { path: { activityId: item.id } } })
        : await api.PUT('/activities/{activityId}', { params: { path: { activityId: item.id } }, body: { endedAt: new Date(Date.parse(item.endedAt!) + delta).toISOString() } });
    if (answer.error) return failed(answer.error);
    delta += Math.min(lengthOf(item), -delta);
  }
  return null;
}
