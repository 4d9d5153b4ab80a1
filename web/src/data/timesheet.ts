import { signal } from '@preact/signals';
import { api, type Activity } from '../api/client.js';
import { addDays, dayKey, dayOf, isoWeek, zonedInstant } from '../lib/time.js';
import { announceChange } from './changes.js';
import { formats } from './preferences.js';
import { projects } from './projects.js';
import { me } from './session.js';
import { taskOf } from './tasks.js';
import { noteLockedWeek } from './weeks.js';

/** A row of the timesheet: a project (null: none) and one of its tasks (null: none). */
export interface SheetRow {
  projectId: string | null;
  taskId: string | null;
}

/** A row's key, the same for every activity of its project and task. */
export const rowKey = (row: SheetRow) => `${row.projectId ?? ''}|${row.taskId ?? ''}`;
export const rowOfKey = (key: string): SheetRow => {
  const [projectId, taskId] = key.split('|');
  return { projectId: projectId || null, taskId: taskId || null };
};
/** The row an activity counts in. */
export const rowOf = (a: Pick<Activity, 'projectId' | 'taskId'>): SheetRow => ({ projectId: a.projectId, taskId: a.projectId ? a.taskId : null });

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
 * Makes the person's time on a row (project and task) and day add up to `minutes`: more extends the
 * day's last entry of the row (or records one from 09:00), less shortens entries from the last,
 * deleting those it uses up (docs/web-app.md). The API's message when a write is refused; the other
 * tabs are told either way.
 */
export async function setCell(row: SheetRow, day: Date, minutes: number): Promise<string | null> {
  const problem = await writeCell(row, day, minutes);
  announceChange();
  return problem;
}

async function writeCell(row: SheetRow, day: Date, minutes: number): Promise<string | null> {
  const tz = formats.value.timeZone;
  const items = timesheetWeek.value
    .filter((a) => rowKey(rowOf(a)) === rowKey(row) && dayKey(dayOf(Date.parse(a.startedAt), tz)) === dayKey(day))
    .sort((a, b) => Date.parse(a.startedAt) - Date.parse(b.startedAt));
  let delta = minutes * 60_000 - items.reduce((sum, a) => sum + lengthOf(a), 0);
  if (delta === 0) return null;
  const failed = (error: { status: number; detail: string; errors?: Array<{ pointer: string }> } | undefined) => {
    if (!error) return null;
    if (error.status === 423) noteLockedWeek(isoWeek(day).year, isoWeek(day).week);
    // A row of a task archived since keeps its entries, but the API puts the task on no new one.
    if (error.errors?.some((e) => e.pointer === '/body/taskId') && taskOf(row.projectId, row.taskId)?.archived) return 'This task is archived: it takes no new entries.';
    return error.detail;
  };
  if (delta > 0) {
    const last = items.at(-1);
    if (last) {
      const answer = await api.PUT('/activities/{activityId}', { params: { path: { activityId: last.id } }, body: { endedAt: new Date(Date.parse(last.endedAt!) + delta).toISOString() } });
      return failed(answer.error);
    }
    const project = row.projectId ? projects.value[row.projectId] : undefined;
    const task = taskOf(row.projectId, row.taskId);
    const startedAt = zonedInstant(day, 9, 0, tz);
    // billable is left to the API: the task's when it has one, else the project's (docs/rules.md §6 Activities: task and tags).
    const answer = await api.POST('/activities', {
      body: {
        name: [project?.name, task?.name].filter(Boolean).join(' · ') || 'Timesheet',
        projectId: row.projectId,
        taskId: row.taskId,
        startedAt: startedAt.toISOString(),
        endedAt: new Date(startedAt.getTime() + delta).toISOString(),
      },
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
