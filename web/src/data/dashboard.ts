import { signal } from '@preact/signals';
import { api, type Activity, type Problem, type Schemas } from '../api/client.js';
import { organization } from './organization.js';
import { me } from './session.js';

/*
 * The dashboard's figures (docs/web-app.md, "Dashboard"), each from a route the API already has:
 * this week's hours by person and project (one report run), who is tracking now (the running timers
 * of the activities listing) and the person's recent entries to continue.
 */

/** A line of the week's hours: a person or a project (key null: no project) and its time in seconds. */
export interface Hours {
  key: string | null;
  label: string;
  seconds: number;
}

export interface TeamWeek {
  byPerson: Hours[];
  byProject: Hours[];
  /** The whole team's time this week, in seconds. */
  total: number;
  /** The zone whose calendar the week is (the organization's). */
  timeZone: string;
}

/** This week's hours of everyone the person may see (an administrator: everyone); null until loaded. */
export const teamWeek = signal<TeamWeek | null>(null);
export const teamWeekProblem = signal<Problem | undefined>(undefined);
/** The running timers of everyone the person may see, earliest first; null until loaded. */
export const trackingNow = signal<Activity[] | null>(null);
/** The person's latest finished entries, one per kind of work, newest first; null until loaded. */
export const recentEntries = signal<Activity[] | null>(null);

/** How many recent entries the dashboard offers to continue, and how far back it looks for them. */
const RECENT_COUNT = 5;
const RECENT_DAYS = 14;

/** One run by person, then project: a person's rows are their projects, added up across people for the projects' lines. */
const thisWeekByPersonAndProject = (): Schemas['RunReportBody'] => ({
  period: 'thisWeek',
  // Required by the body (end after start), ignored for a named period: the API resolves the week itself.
  start: new Date(Date.now() - 86_400_000).toISOString(),
  end: new Date().toISOString(),
  dimensions: ['user', 'project'],
  metrics: ['time'],
  filters: [],
  hideEmptyRows: true,
  showArchivedProjects: true,
  showArchivedMembers: true,
});

const byLabel = (a: Hours, b: Hours) => (a.key === null ? 1 : b.key === null ? -1 : a.label.localeCompare(b.label));

export async function loadTeamWeek(): Promise<void> {
  const timeZone = organization.value?.timeZone || 'UTC';
  const answer = await api.POST('/reports/run', { params: { query: { timeZone } }, body: thisWeekByPersonAndProject() });
  teamWeekProblem.value = answer.error;
  if (answer.error) return;
  // JSON was asked for (no format): the other content types are the downloads.
  const result = answer.data as Schemas['ReportResult'];
  const projects = new Map<string | null, Hours>();
  for (const person of result.rows)
    for (const project of person.rows ?? []) {
      const line = projects.get(project.key) ?? { key: project.key, label: project.label, seconds: 0 };
      line.seconds += project.time ?? 0;
      projects.set(project.key, line);
    }
  teamWeek.value = {
    byPerson: result.rows.map((row) => ({ key: row.key, label: row.label, seconds: row.time ?? 0 })),
    byProject: [...projects.values()].sort(byLabel),
    total: result.totals.time ?? 0,
    timeZone: result.timeZone,
  };
}

/** Running timers: a listing from now keeps every running one (docs/rules.md §6), and the entries that end later. */
export async function loadTrackingNow(): Promise<void> {
  const answer = await api.GET('/activities', { params: { query: { from: new Date().toISOString() } } });
  if (answer.data) trackingNow.value = Object.values(answer.data).filter((activity) => activity.endedAt === null);
}

const sameWork = (a: Activity, b: Activity) =>
  a.name === b.name && a.projectId === b.projectId && a.taskId === b.taskId && [...a.tagIds].sort().join() === [...b.tagIds].sort().join();

/** The person's finished entries of the last two weeks, newest first, the same work offered once. */
export async function loadRecentEntries(): Promise<void> {
  const user = me.value!;
  const from = new Date(Date.now() - RECENT_DAYS * 86_400_000).toISOString();
  const answer = await api.GET('/activities', { params: { query: { from, userId: user.id } } });
  if (!answer.data) return;
  const finished = Object.values(answer.data)
    .filter((activity) => activity.userId === user.id && activity.endedAt !== null)
    .sort((a, b) => Date.parse(b.startedAt) - Date.parse(a.startedAt));
  const offered: Activity[] = [];
  for (const activity of finished) {
    if (offered.length === RECENT_COUNT) break;
    if (!offered.some((other) => sameWork(other, activity))) offered.push(activity);
  }
  recentEntries.value = offered;
}
