import { computed, signal } from '@preact/signals';
import { api, type Activity, type Problem, type Schemas } from '../api/client.js';
import { addDays, dayKey, dayOf, isoWeek, mondayOf, zonedInstant } from '../lib/time.js';
import { announceChange } from './changes.js';
import { formats } from './preferences.js';
import { projects } from './projects.js';
import { me } from './session.js';
import { tags } from './tags.js';
import { taskOf } from './tasks.js';
import { noteLockedWeek } from './weeks.js';

type NewActivity = Schemas['CreateActivityBody'];
type ActivityChange = Schemas['UpdateActivityBody'];
type TimerStart = Pick<Activity, 'name' | 'projectId' | 'billable' | 'taskId' | 'tagIds'>;

/** This week's activities of the person (today's included), the running timer among them. */
export const thisWeekEntries = signal<Activity[]>([]);
/** Whether this week's activities have been loaded once (before that, "nothing recorded" is not said). */
export const thisWeekEntriesLoaded = signal(false);
/** The person's running timer, if one runs. */
export const runningTimer = computed(() => thisWeekEntries.value.find((activity) => activity.endedAt === null) ?? null);

/** Loads begun, and the last whose answer was shown (an older answer arriving later is dropped). */
let loadsBegun = 0;
let loadShown = 0;
/** Writes of this page answered: a load begun before one of them may hold what it replaced. */
let writesAnswered = 0;

export async function loadThisWeekEntries(): Promise<void> {
  const user = me.value!;
  const tz = formats.value.timeZone;
  const monday = zonedInstant(mondayOf(dayOf(Date.now(), tz)), 0, 0, tz);
  const load = ++loadsBegun;
  const writesBefore = writesAnswered;
  const answer = await api.GET('/activities', { params: { query: { from: monday.toISOString(), userId: user.id } } });
  // Every answered write begins a load of its own, so a stale answer is dropped, not waited for.
  if (load < loadShown || writesBefore !== writesAnswered) return;
  loadShown = load;
  if (answer.data) thisWeekEntries.value = Object.values(answer.data).filter((activity) => activity.userId === user.id).map(withUnansweredChanges);
  thisWeekEntriesLoaded.value = true;
}

/**
 * The past week Track shows (docs/web-app.md, "Track"): the person's activities that start in it, by the
 * key of its Monday (`2026-11-30`). Null before one is loaded.
 */
export const pastWeekEntries = signal<{ monday: string; entries: Activity[] } | null>(null);

let pastLoadsBegun = 0;
let pastLoadShown = 0;

/** Loads the person's activities of the week that begins on this Monday (a day of their time zone). */
export async function loadPastWeekEntries(monday: Date): Promise<void> {
  const user = me.value!;
  const tz = formats.value.timeZone;
  const from = zonedInstant(monday, 0, 0, tz);
  const to = zonedInstant(addDays(monday, 7), 0, 0, tz);
  const load = ++pastLoadsBegun;
  const writesBefore = writesAnswered;
  const answer = await api.GET('/activities', { params: { query: { from: from.toISOString(), to: to.toISOString(), userId: user.id } } });
  if (load < pastLoadShown || writesBefore !== writesAnswered) return;
  pastLoadShown = load;
  if (!answer.data) return;
  const entries = Object.values(answer.data).filter((activity) => activity.userId === user.id && Date.parse(activity.startedAt) >= from.getTime());
  pastWeekEntries.value = { monday: dayKey(monday), entries: entries.map(withUnansweredChanges) };
}

/** After a write of this page is answered: the activities are loaded again, here and in other tabs. */
function written(): void {
  writesAnswered++;
  announceChange();
}

/** The ISO week an activity belongs to for locking (the organization's calendar: docs/rules.md §6). */
export function weekOf(activity: Pick<Activity, 'startedAt'>) {
  return isoWeek(dayOf(Date.parse(activity.startedAt), formats.value.timeZone));
}

/**
 * What "Continue" starts and "Undo" records again: the activity's name, project, billable, task and
 * tags, less a task or tags known to be archived since (the API puts no archived one on another
 * activity: docs/rules.md §6 Tags).
 */
export function sameWorkAs(activity: Activity): TimerStart {
  const task = taskOf(activity.projectId, activity.taskId);
  return {
    name: activity.name,
    projectId: activity.projectId,
    billable: activity.billable,
    taskId: task?.archived ? null : activity.taskId,
    tagIds: activity.tagIds.filter((tagId) => !tags.value[tagId]?.archived),
  };
}

/**
 * The billable the API gives an activity of this project and task: the task's when it is not null,
 * else the project's, false without a project (docs/rules.md §6 Activities and timers). The API
 * leaves billable alone when a PUT changes the project or task, so the page sends it with them.
 */
export function defaultBillable(projectId: string | null, taskId: string | null): boolean {
  const project = projectId ? projects.value[projectId] : undefined;
  return taskOf(projectId, taskId)?.billable ?? project?.billable ?? false;
}

/** A week of the ISO calendar. */
export interface Week {
  year: number;
  week: number;
}

/**
 * The week a write refused with 423 found locked: the one the API's detail names ("Week 49 of 2026 is
 * locked…"), else the week the write moved the activity to, else the activity's own. A change that
 * moves an entry into a locked week thus marks that week, never the one the entry is in.
 */
export function lockedWeekOf(problem: Problem | undefined, activity: Pick<Activity, 'startedAt'>, moved?: { startedAt?: string }): Week | undefined {
  if (problem?.status !== 423) return undefined;
  const named = /^Week (\d+) of (\d{4}) is locked/.exec(problem.detail ?? '');
  if (named) return { year: Number(named[2]), week: Number(named[1]) };
  return weekOf(moved?.startedAt ? { startedAt: moved.startedAt } : activity);
}

/** A write refused with 423 tells that a week is locked (lockedWeekOf). */
function remember423(problem: Problem | undefined, activity: Pick<Activity, 'startedAt'>, moved?: { startedAt?: string }): void {
  const locked = lockedWeekOf(problem, activity, moved);
  if (locked) noteLockedWeek(locked.year, locked.week);
}

/** Starts a timer now (the API stops one that runs). */
export async function startTimer(body: TimerStart): Promise<Problem | undefined> {
  const running = runningTimer.value;
  const answer = await api.POST('/activities', { body: { ...body, startedAt: new Date().toISOString(), pending: true } });
  if (answer.error && running) remember423(answer.error, running);
  written();
  return answer.error;
}

export async function stopTimer(running: Activity): Promise<Problem | undefined> {
  const answer = await api.PUT('/activities/{activityId}', { params: { path: { activityId: running.id } }, body: { endedAt: new Date().toISOString() } });
  remember423(answer.error, running);
  written();
  return answer.error;
}

/**
 * Changes sent and not yet answered, by activity id. The page shows them at once, so a field edited
 * next starts from them and never sends back a value the previous edit replaced.
 */
const unanswered = new Map<string, { body: ActivityChange; writes: number }>();

function withUnansweredChanges(activity: Activity): Activity {
  const pending = unanswered.get(activity.id);
  return pending ? ({ ...activity, ...pending.body } as Activity) : activity;
}

export async function changeActivity(activity: Pick<Activity, 'id' | 'startedAt'>, body: ActivityChange): Promise<Problem | undefined> {
  const pending = unanswered.get(activity.id);
  unanswered.set(activity.id, { body: { ...pending?.body, ...body }, writes: (pending?.writes ?? 0) + 1 });
  thisWeekEntries.value = thisWeekEntries.value.map((entry) => (entry.id === activity.id ? withUnansweredChanges(entry) : entry));
  const past = pastWeekEntries.value;
  if (past) pastWeekEntries.value = { ...past, entries: past.entries.map((entry) => (entry.id === activity.id ? withUnansweredChanges(entry) : entry)) };
  const answer = await api.PUT('/activities/{activityId}', { params: { path: { activityId: activity.id } }, body });
  const left = unanswered.get(activity.id)!;
  if (left.writes === 1) unanswered.delete(activity.id);
  else left.writes--;
  remember423(answer.error, activity, body);
  // A refused change is undone by loading the activities again, as an accepted one is confirmed.
  written();
  return answer.error;
}

export async function deleteActivity(activity: Activity): Promise<Problem | undefined> {
  const answer = await api.DELETE('/activities/{activityId}', { params: { path: { activityId: activity.id } } });
  remember423(answer.error, activity);
  if (!answer.error) written();
  return answer.error;
}

/** Records a finished activity (added by hand, or a deleted one again by "Undo": with a new id); the API's refusal, if any. */
export async function recordActivity(body: NewActivity): Promise<Problem | undefined> {
  const answer = await api.POST('/activities', { body });
  remember423(answer.error, body);
  written();
  return answer.error;
}
