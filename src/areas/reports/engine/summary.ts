import { assertTimeSpan, bucketLabel, bucketsBetween, isTimeDimension, zoneOffsets, type TimeDimension, type ZoneOffsets } from './buckets.js';
import type { Directory, DirectoryParts } from './directory.js';
import { fillDomain } from './empty-rows.js';
import type { ReportRun } from './run.js';
import type { SummaryGroup } from './selection.js';
import { assertFillable, treeSteps, type Dimension, type Metric, type SummaryRow, type SummaryTotals, type TreeContext } from './tree.js';

/** The answer of a summary run (docs/rules.md §6 Reports, "Shape"). */
export interface SummaryResult {
  period: ReportRun['definition']['period'];
  start: string;
  end: string;
  timeZone: string;
  dimensions: Dimension[];
  metrics: Metric[];
  rounding: ReportRun['rounding'];
  totals: SummaryTotals;
  rows: SummaryRow[];
  ignoredFilters: Array<Record<string, unknown>>;
}

/** What a summary reads and fills, decided from its run before anything is read. */
export interface SummaryPlan {
  dimensions: Dimension[];
  metrics: Metric[];
  timeDimensions: TimeDimension[];
  /** Whether rates are looked up: a money metric is asked for. */
  withRates: boolean;
  /** Which parts the directory holds: memberships with a member dimension or empty rows to fill; clients, tasks, tags with their dimension. */
  directory: DirectoryParts;
  /** The zone's offsets over the period (none changing without a time dimension). */
  zone: ZoneOffsets;
  /** Every bucket of each time dimension, to fill (none when empty rows are hidden). */
  buckets: Map<TimeDimension, string[]>;
}

/** The plan of a run's summary: 422 for a time dimension over too long a period, or too many buckets to fill. */
export function planSummary(run: ReportRun): SummaryPlan {
  const { definition, spec } = run;
  const dimensions = definition.dimensions as Dimension[];
  const metrics = definition.metrics as Metric[];
  const timeDimensions = dimensions.filter(isTimeDimension);
  const withRates = metrics.some((metric) => metric === 'revenue' || metric === 'cost' || metric === 'profit');
  if (timeDimensions.length > 0) assertTimeSpan(spec.period);
  const buckets = new Map<TimeDimension, string[]>();
  if (!definition.hideEmptyRows) {
    for (const dimension of timeDimensions) buckets.set(dimension, bucketsBetween(dimension, spec.period.start, spec.period.end, run.timeZone));
  }
  const zone = timeDimensions.length === 0 ? { changes: [], offsets: [0] } : zoneOffsets(run.timeZone, spec.period);
  const directory: DirectoryParts = {
    members: dimensions.includes('member') || !definition.hideEmptyRows,
    clients: dimensions.includes('client'),
    tasks: dimensions.includes('task'),
    tags: dimensions.includes('tag'),
  };
  return { dimensions, metrics, timeDimensions, withRates, directory, zone, buckets };
}

function treeContext(run: ReportRun, plan: SummaryPlan, directory: Directory): TreeContext {
  const { definition, spec } = run;
  return {
    dimensions: plan.dimensions,
    metrics: plan.metrics,
    partialRevenue: spec.revenue !== null && !spec.revenue.all,
    label: (dimension, key) => labelOf(directory, dimension, key),
    domain: definition.hideEmptyRows ? null : fillDomain(directory, spec, plan.buckets),
    keyOf,
    onceDepth: onceDepthOf(plan.dimensions),
  };
}

/** Whether a run fills empty rows, so that assertFillable must see its directory before its entries are read. */
export const fillsEmptyRows = (run: ReportRun): boolean => !run.definition.hideEmptyRows;

/** 422 when the empty rows to fill are too many already, from the directory alone (before the entries are read). */
export function assertSummaryFillable(run: ReportRun, plan: SummaryPlan, directory: Directory): void {
  assertFillable(treeContext(run, plan, directory));
}

/**
 * The summary of a run from what its plan read: the groups of its entries and the workspace's
 * directory. Built in steps (engine/tree.ts `treeSteps`): the caller decides what runs between them.
 */
export function* summarySteps(run: ReportRun, plan: SummaryPlan, read: { groups: readonly SummaryGroup[]; directory: Directory }): Generator<void, SummaryResult> {
  const { definition, spec } = run;
  const { dimensions, metrics } = plan;
  const { rows, totals } = yield* treeSteps(read.groups, treeContext(run, plan, read.directory));
  return {
    period: definition.period,
    start: spec.period.start,
    end: spec.period.end,
    timeZone: run.timeZone,
    dimensions,
    metrics,
    rounding: run.rounding,
    totals,
    rows,
    ignoredFilters: run.ignoredFilters,
  };
}

function keyOf(group: SummaryGroup, dimension: Dimension): string | null {
  switch (dimension) {
    case 'project':
      return group.projectId;
    case 'user':
      return group.userId;
    case 'member':
      return group.memberId;
    case 'client':
      return group.clientId ?? null;
    case 'task':
      return group.taskId ?? null;
    case 'tag':
      return group.tagId ?? null;
    default:
      return group.buckets[dimension]!;
  }
}

/** The label of a row of no project, member, client, task or tag. */
const NONE_LABELS: Record<Exclude<Dimension, TimeDimension | 'user'>, string> = {
  project: 'No project',
  member: 'No member',
  client: 'No client',
  task: 'No task',
  tag: 'No tag',
};

/** A row's label: a project's, client's, task's or tag's name, a user's (or member's user's) name or email, a formatted bucket. */
function labelOf(directory: Directory, dimension: Dimension, key: string | null): string {
  if (isTimeDimension(dimension)) return bucketLabel(dimension, key!);
  if (key === null) return NONE_LABELS[dimension === 'user' ? 'member' : dimension];
  switch (dimension) {
    case 'project':
      return directory.projects.get(key)?.name ?? key;
    case 'client':
      return directory.clients.get(key)?.name ?? key;
    case 'task':
      return directory.tasks.get(key)?.name ?? key;
    case 'tag':
      return directory.tags.get(key)?.name ?? key;
  }
  const userId = dimension === 'member' ? directory.members.get(key)?.userId : key;
  return (userId === undefined ? undefined : directory.users.get(userId)?.label) ?? key;
}

/**
 * By tag, an entry counts in the row of each of its tags: the rows of the dimension above the tag
 * (the totals when the tag comes first) count it once, from the groups' `once` sums, and so do the
 * rows above them (docs/rules.md §6 Reports, "By tag"). Null: nothing is grouped by tag.
 */
function onceDepthOf(dimensions: readonly Dimension[]): number | null {
  const tag = dimensions.indexOf('tag');
  return tag < 0 ? null : tag - 1;
}
