import type { Schemas } from '../../api/client.js';
import type { AddressPeriod } from './address.js';
import { addDays, dateInputValue, dayOf, mondayOf, parseDateInput, zonedInstant } from '../../lib/time.js';

/*
 * The report the page is editing, as the form holds it, and the run body the API takes
 * (docs/rules.md §6 Reports; the run rules are in src/areas/reports/run-routes.ts).
 */

export type RunBody = Schemas['RunReportBody'];
export type Report = Schemas['Report'];
export type ReportResult = Schemas['ReportResult'];
export type Period = RunBody['period'];
export type Dimension = RunBody['dimensions'][number];
export type Metric = RunBody['metrics'][number];

export const PERIODS: [Period, string][] = [
  ['custom', 'Custom range'],
  ['today', 'Today'],
  ['yesterday', 'Yesterday'],
  ['thisWeek', 'This week'],
  ['lastWeek', 'Last week'],
  ['thisMonth', 'This month'],
  ['lastMonth', 'Last month'],
  ['thisYear', 'This year'],
  ['lastYear', 'Last year'],
];

export const DIMENSIONS: Record<Dimension, string> = {
  project: 'Project',
  user: 'Person',
  member: 'Membership',
  day: 'Day',
  week: 'Week',
  month: 'Month',
  client: 'Client',
  task: 'Task',
  tag: 'Tag',
};

export const TIME_DIMENSIONS: ReadonlySet<Dimension> = new Set(['day', 'week', 'month']);

export const METRICS: Record<Metric, string> = {
  time: 'Time',
  billableTime: 'Billable time',
  revenue: 'Revenue',
  cost: 'Cost',
  profit: 'Profit',
};

/**
 * The metrics a person may ask for: revenue needs revenue-rate access (administrators, and project
 * admins for their projects), cost and profit are administrators' only; the API answers 403 otherwise.
 */
export function offeredMetrics(admin: boolean, projectAdmin: boolean): Metric[] {
  if (admin) return ['time', 'billableTime', 'revenue', 'cost', 'profit'];
  return projectAdmin ? ['time', 'billableTime', 'revenue'] : ['time', 'billableTime'];
}

/** "No project", "no client", "no task" and "no tag" in the filters (the API's null). */
export const NONE = '';

/** Which entries the chosen tags keep: those carrying any of them, all of them, or none of them. */
export type TagMatch = 'any' | 'all' | 'none';
export const TAG_MATCHES: [TagMatch, string][] = [
  ['any', 'Any of them'],
  ['all', 'All of them'],
  ['none', 'None of them'],
];

export interface Draft {
  period: Period;
  /** The custom range's first and last day (inclusive), YYYY-MM-DD. */
  first: string;
  last: string;
  /**
   * The custom range as exact instants, when the page's address gave it (address.ts): sent as it is
   * instead of the days' midnights, until the period or a day is changed.
   */
  exact?: AddressPeriod;
  dimensions: Dimension[];
  metrics: Metric[];
  billable: '' | 'true' | 'false';
  projectIds: string[];
  userIds: string[];
  /** Chosen clients, tasks and tags; NONE stands for "no client", "no task" and "no tag". */
  clientIds: string[];
  taskIds: string[];
  tagIds: string[];
  tagMatch: TagMatch;
  nameContains: string;
  hideEmptyRows: boolean;
  showArchivedProjects: boolean;
}

/** A new report: this month so far as a custom range, by project, time and billable time. */
export function newDraft(timeZone: string): Draft {
  const today = dayOf(Date.now(), timeZone);
  const first = new Date(Date.UTC(today.getUTCFullYear(), today.getUTCMonth(), 1));
  return {
    period: 'custom',
    first: dateInputValue(first),
    last: dateInputValue(today),
    dimensions: ['project'],
    metrics: ['time', 'billableTime'],
    billable: '',
    projectIds: [],
    userIds: [],
    clientIds: [],
    taskIds: [],
    tagIds: [],
    tagMatch: 'any',
    nameContains: '',
    hideEmptyRows: true,
    showArchivedProjects: false,
  };
}

/** A draft set to an exact custom range: its first and last day shown as the days of the zone it covers. */
export function withExactPeriod(draft: Draft, period: AddressPeriod, timeZone: string): Draft {
  return {
    ...draft,
    period: 'custom',
    first: dateInputValue(dayOf(new Date(period.start), timeZone)),
    last: dateInputValue(dayOf(new Date(period.end).getTime() - 1, timeZone)),
    exact: { ...period },
  };
}

/** The custom range's bounds as instants: the exact range, else midnight of the first day to midnight after the last, in the zone. */
function bounds(draft: Draft, timeZone: string): { start: string; end: string } {
  if (draft.period === 'custom' && draft.exact) return { ...draft.exact };
  const first = parseDateInput(draft.first) ?? mondayOf(dayOf(Date.now(), timeZone));
  const last = parseDateInput(draft.last) ?? first;
  return {
    start: zonedInstant(first, 0, 0, timeZone).toISOString(),
    end: zonedInstant(addDays(last, 1), 0, 0, timeZone).toISOString(),
  };
}

const orNull = (id: string) => (id === NONE ? null : id);
const orNone = (id: unknown) => (id === null ? NONE : String(id));

/** The run body of a draft; start and end are required even for a named period, which the API resolves itself. */
export function runBody(draft: Draft, timeZone: string, name?: string): RunBody {
  const filters: Record<string, unknown>[] = [];
  if (draft.billable) filters.push({ billable: draft.billable === 'true' });
  if (draft.projectIds.length) filters.push({ projectIds: draft.projectIds.map(orNull) });
  if (draft.userIds.length) filters.push({ userIds: draft.userIds });
  if (draft.clientIds.length) filters.push({ clientIds: draft.clientIds.map(orNull) });
  if (draft.taskIds.length) filters.push({ taskIds: draft.taskIds.map(orNull) });
  if (draft.tagIds.length) filters.push({ tagIds: draft.tagIds.map(orNull), match: draft.tagMatch });
  if (draft.nameContains.trim()) filters.push({ nameContains: draft.nameContains.trim() });
  return {
    ...(name ? { name } : {}),
    period: draft.period,
    ...bounds(draft, timeZone),
    dimensions: draft.dimensions,
    metrics: draft.metrics,
    filters,
    hideEmptyRows: draft.hideEmptyRows,
    showArchivedProjects: draft.showArchivedProjects,
  };
}

/** A saved report back in the form (filters the page does not offer are kept by the saved report, not shown). */
export function draftOf(report: Report, timeZone: string): Draft {
  const draft: Draft = {
    period: report.period,
    first: dateInputValue(dayOf(new Date(report.start), timeZone)),
    last: dateInputValue(dayOf(new Date(report.end).getTime() - 1, timeZone)),
    dimensions: [...report.dimensions],
    metrics: [...report.metrics],
    billable: '',
    projectIds: [],
    userIds: [],
    clientIds: [],
    taskIds: [],
    tagIds: [],
    tagMatch: 'any',
    nameContains: '',
    hideEmptyRows: report.hideEmptyRows,
    showArchivedProjects: report.showArchivedProjects ?? false,
  };
  for (const filter of report.filters) {
    if (typeof filter.billable === 'boolean') draft.billable = filter.billable ? 'true' : 'false';
    if (Array.isArray(filter.projectIds)) draft.projectIds = filter.projectIds.map(orNone);
    if (Array.isArray(filter.userIds)) draft.userIds = filter.userIds.map(String);
    if (Array.isArray(filter.clientIds)) draft.clientIds = filter.clientIds.map(orNone);
    if (Array.isArray(filter.taskIds)) draft.taskIds = filter.taskIds.map(orNone);
    if (Array.isArray(filter.tagIds)) {
      draft.tagIds = filter.tagIds.map(orNone);
      draft.tagMatch = filter.match === 'all' || filter.match === 'none' ? filter.match : 'any';
    }
    if (typeof filter.nameContains === 'string') draft.nameContains = filter.nameContains;
  }
  return draft;
}

/**
 * A row of the result tree: the served schema's top row, whose rows (the next dimension's, absent at
 * the leaf) have the same fields at every depth.
 */
export type ResultRow = Omit<ReportResult['rows'][number], 'rows'> & { rows?: ResultRow[] };

/** Every currency the result's totals name, per money metric, sorted. */
export function currenciesOf(result: ReportResult): Record<'revenue' | 'cost' | 'profit', string[]> {
  const totals = result.totals as ResultRow;
  const of = (money?: Record<string, number>) => Object.keys(money ?? {}).sort();
  return { revenue: of(totals.revenue), cost: of(totals.cost), profit: of(totals.profit) };
}
