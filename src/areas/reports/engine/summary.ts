import { assertTimeSpan, bucketLabel, bucketsBetween, isTimeDimension, zoneOffsets, type TimeDimension, type ZoneOffsets } from './buckets.js';
import type { Directory } from './directory.js';
import type { ReportRun } from './run.js';
import type { EntrySelection, SummaryGroup } from './selection.js';
import { buildTree, type Dimension, type Metric, type SummaryRow, type SummaryTotals, type TreeContext } from './tree.js';

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
  /** Whether the directory holds memberships: a member dimension, or empty rows to fill. */
  withMembers: boolean;
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
  return { dimensions, metrics, timeDimensions, withRates, withMembers: dimensions.includes('member') || !definition.hideEmptyRows, zone, buckets };
}

/** The summary of a run from what its plan read: the groups of its entries and the workspace's directory. */
export function summarize(run: ReportRun, plan: SummaryPlan, read: { groups: readonly SummaryGroup[]; directory: Directory }): SummaryResult {
  const { definition, spec } = run;
  const { dimensions, metrics } = plan;
  const { directory } = read;
  const context: TreeContext = {
    dimensions,
    metrics,
    partialRevenue: spec.revenue !== null && !spec.revenue.all,
    label: (dimension, key) => labelOf(directory, dimension, key),
    domain: definition.hideEmptyRows ? null : fillDomain(directory, spec, plan.buckets),
    keyOf,
  };
  const { rows, totals } = buildTree(read.groups, context);
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
    default:
      return group.buckets[dimension]!;
  }
}

/** A row's label: a project's name, a user's (or member's user's) name or email, a formatted bucket. */
function labelOf(directory: Directory, dimension: Dimension, key: string | null): string {
  if (isTimeDimension(dimension)) return bucketLabel(dimension, key!);
  if (key === null) return dimension === 'project' ? 'No project' : 'No member';
  if (dimension === 'project') return directory.projects.get(key)?.name ?? key;
  const userId = dimension === 'member' ? directory.members.get(key)?.userId : key;
  return (userId === undefined ? undefined : directory.users.get(userId)?.label) ?? key;
}

/**
 * The keys hideEmptyRows false shows with zeros (docs/rules.md §6 Reports): every bucket of the
 * period; the projects, users and members whose entries the caller could see in this report (an
 * Administrator: the workspace's; a User: their own and those of the projects they administer),
 * without archived ones unless shown, narrowed by the selections and the id filters. Under a project,
 * users and members are the project's members; under a user or member, projects are theirs.
 */
function fillDomain(directory: Directory, spec: EntrySelection, buckets: Map<TimeDimension, string[]>): TreeContext['domain'] {
  const everything = spec.entries.all;
  const me = spec.entries.all ? null : spec.entries.userId;
  const administered = new Set<string>();
  for (const member of directory.members.values()) if (member.userId === me && member.admin && !member.archived) administered.add(member.projectId);
  const userAllowed = (userId: string) => {
    const user = directory.users.get(userId);
    return user !== undefined && (spec.showArchivedMembers || !user.archived) && spec.filters.userIds.every((ids) => ids.includes(userId));
  };
  const projectAllowed = (projectId: string) => {
    const project = directory.projects.get(projectId);
    return (
      project !== undefined &&
      (spec.showArchivedProjects || !project.archived) &&
      (spec.selectedProjects === null || spec.selectedProjects.includes(projectId)) &&
      spec.filters.projectIds.every(({ ids }) => ids.includes(projectId))
    );
  };
  const members = [...directory.members.entries()].filter(
    ([id, member]) =>
      (everything || member.userId === me || administered.has(member.projectId)) &&
      (spec.showArchivedMembers || !member.archived) &&
      (spec.selectedProjectMembers === null || spec.selectedProjectMembers.includes(id)) &&
      userAllowed(member.userId) &&
      projectAllowed(member.projectId),
  );
  const usersOfProject = new Map<string, Set<string>>();
  const projectsOfUser = new Map<string, Set<string>>();
  for (const [, member] of members) {
    if (!usersOfProject.has(member.projectId)) usersOfProject.set(member.projectId, new Set());
    if (!projectsOfUser.has(member.userId)) projectsOfUser.set(member.userId, new Set());
    usersOfProject.get(member.projectId)!.add(member.userId);
    projectsOfUser.get(member.userId)!.add(member.projectId);
  }
  // Without every record in reach, or with members selected, only those the kept members lead to.
  const narrowed = !everything || spec.selectedProjectMembers !== null;
  const projects = [...directory.projects.keys()].filter((id) => projectAllowed(id) && (!narrowed || usersOfProject.has(id)));
  const users = [...directory.users.keys()].filter(
    (id) => userAllowed(id) && (!narrowed || projectsOfUser.has(id) || (id === me && spec.selectedProjectMembers === null)),
  );
  return (dimension, path) => {
    if (isTimeDimension(dimension)) return buckets.get(dimension)!;
    const project = path.get('project');
    const user = path.get('user');
    const member = path.has('member') ? directory.members.get(path.get('member') ?? '') : undefined;
    switch (dimension) {
      case 'project':
        if (path.has('member')) return member === undefined ? [] : projects.filter((id) => id === member.projectId);
        return user === undefined ? projects : projects.filter((id) => user !== null && projectsOfUser.get(user)?.has(id));
      case 'user':
        if (path.has('member')) return member === undefined ? [] : users.filter((id) => id === member.userId);
        return project === undefined ? users : users.filter((id) => project !== null && usersOfProject.get(project)?.has(id));
      case 'member':
        return members
          .filter(([, m]) => (project === undefined || m.projectId === project) && (user === undefined || m.userId === user))
          .map(([id]) => id);
    }
  };
}
