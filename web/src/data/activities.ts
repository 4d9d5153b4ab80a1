import { computed, signal } from '@preact/signals';
import { api, type Activity, type Problem, type Schemas } from '../api/client.js';
import { dayOf, isoWeek, mondayOf, zonedInstant } from '../lib/time.js';
import { announceChange } from './changes.js';
import { formats } from './preferences.js';
import { me } from './session.js';
import { noteLockedWeek } from './weeks.js';

type NewActivity = Schemas['CreateActivityBody'];
type ActivityChange = Schemas['UpdateActivityBody'];
type TimerStart = Pick<Activity, 'name' | 'projectId' | 'billable'>;

/** This week's activities of the person (today's included), the running timer among them. */
export const thisWeekEntries = signal<Activity[]>([]);
/** Whether this week's activities have been loaded once (before that, "nothing recorded" is not said). */
export const thisWeekEntriesLoaded = signal(false);
/** The person's running timer, if one runs. */
export const runningTimer = computed(() => thisWeekEntries.value.find((activity) => activity.endedAt === null) ?? null);

export async function loadThisWeekEntries(): Promise<void> {
  const user = me.value!;
  const tz = formats.value.timeZone;
  const monday = zonedInstant(mondayOf(dayOf(Date.now(), tz)), 0, 0, tz);
  const answer = await api.GET('/activities', { params: { query: { from: monday.toISOString(), userId: user.id } } });
  if (answer.data) thisWeekEntries.value = Object.values(answer.data).filter((activity) => activity.userId === user.id);
  thisWeekEntriesLoaded.value = true;
}

/** The ISO week an activity belongs to for locking (the organization's calendar: docs/rules.md §6). */
export function weekOf(activity: Pick<Activity, 'startedAt'>) {
  return isoWeek(dayOf(Date.parse(activity.startedAt), formats.value.timeZone));
}

/** A write refused with 423 tells that the activity's week is locked. */
function remember423(problem: Problem | undefined, activity: Pick<Activity, 'startedAt'>): void {
  if (problem?.status === 423) {
    const { year, week } = weekOf(activity);
    noteLockedWeek(year, week);
  }
}

/** Starts a timer now (the API stops one that runs). */
export async function startTimer(body: TimerStart): Promise<Problem | undefined> {
  const running = runningTimer.value;
  const answer = await api.POST('/activities', { body: { ...body, startedAt: new Date().toISOString(), pending: true } });
  if (answer.error && running) remember423(answer.error, running);
  announceChange();
  return answer.error;
}

export async function stopTimer(running: Activity): Promise<Problem | undefined> {
  const answer = await api.PUT('/activities/{activityId}', { params: { path: { activityId: running.id } }, body: { endedAt: new Date().toISOString() } });
  remember423(answer.error, running);
  announceChange();
  return answer.error;
}

export async function changeActivity(activity: Activity, body: ActivityChange): Promise<Problem | undefined> {
  const answer = await api.PUT('/activities/{activityId}', { params: { path: { activityId: activity.id } }, body });
  remember423(answer.error, activity);
  if (!answer.error) announceChange();
  return answer.error;
}

export async function deleteActivity(activity: Activity): Promise<Problem | undefined> {
  const answer = await api.DELETE('/activities/{activityId}', { params: { path: { activityId: activity.id } } });
  remember423(answer.error, activity);
  if (!answer.error) announceChange();
  return answer.error;
}

/** Records a finished activity (a deleted one again, by "Undo": with a new id). */
export async function recordActivity(body: NewActivity): Promise<void> {
  await api.POST('/activities', { body });
  announceChange();
}
