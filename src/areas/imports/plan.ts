import { nameKey } from '../../lib/names.js';
import type { ImportCounts, ImportProblem } from './schemas.js';
import type { ReadEntry } from './rows.js';

/*
 * What an import creates (docs/rules.md §6 Imports): the records its entries need that the workspace
 * lacks, matched by name without regard to case, and the entries themselves with every reference
 * resolved to an id. Pure: the workspace is given as a Directory, new ids by newId.
 */


/** A rate period of the workspace (revenue: of a member; cost: of a user). */
export interface RatePeriod {
  from: string;
  to: string | null;
  value: number;
  currency: string;
}

/** The workspace as the plan needs it. */
export interface Directory {
  organizationCurrency: string;
  usersByEmail: ReadonlyMap<string, string>;
  clients: ReadonlyMap<string, string>;
  projects: ReadonlyMap<string, { id: string; clientId: string | null; billable: boolean }>;
  /** By project id and task name key. */
  tasks: ReadonlyMap<string, { id: string; billable: boolean | null }>;
  tags: ReadonlyMap<string, string>;
  /** By project id and user id. */
  members: ReadonlyMap<string, string>;
  revenueRates: ReadonlyMap<string, readonly RatePeriod[]>;
  costRates: ReadonlyMap<string, readonly RatePeriod[]>;
}

export interface NewRate extends RatePeriod {
  id: string;
}

export interface StagedEntry {
  id: string;
  row: number;
  userId: string;
  projectId: string | null;
  taskId: string | null;
  name: string;
  billable: boolean;
  startedAt: string;
  endedAt: string;
  tagIds: string[];
  key: string;
}

export interface Plan {
  clients: Array<{ id: string; name: string }>;
  projects: Array<{ id: string; name: string; clientId: string | null }>;
  tasks: Array<{ id: string; projectId: string; name: string }>;
  tags: Array<{ id: string; name: string }>;
  users: Array<{ id: string; email: string; name: string | null }>;
  members: Array<{ id: string; projectId: string; userId: string }>;
  revenueRates: Array<NewRate & { projectId: string; memberId: string }>;
  costRates: Array<NewRate & { userId: string }>;
  entries: StagedEntry[];
  warnings: ImportProblem[];
}

export const countsOf = (plan: Plan): ImportCounts => ({
  clients: plan.clients.length,
  projects: plan.projects.length,
  tasks: plan.tasks.length,
  tags: plan.tags.length,
  users: plan.users.length,
  members: plan.members.length,
  activities: plan.entries.length,
  revenueRates: plan.revenueRates.length,
  costRates: plan.costRates.length,
});

const NAME_LIMIT = 200;

/** An activity's name: the description, else the task's or the project's name (an activity's name is never blank). */
function entryName(entry: ReadEntry): string {
  const name = entry.description.trim() || entry.task || entry.project || 'Imported entry';
  const points = Array.from(name);
  return points.length > NAME_LIMIT ? points.slice(0, NAME_LIMIT).join('') : name;
}

/** Finds a record by name key, or makes it once (the first spelling of the file names it). */
function finder<T>(known: ReadonlyMap<string, T>, make: (key: string) => T): (key: string) => T {
  const made = new Map<string, T>();
  return (key) => {
    const found = known.get(key) ?? made.get(key);
    if (found !== undefined) return found;
    const value = make(key);
    made.set(key, value);
    return value;
  };
}

export function planImport(entries: readonly ReadEntry[], directory: Directory, newId: () => string): Plan {
  const plan: Plan = { clients: [], projects: [], tasks: [], tags: [], users: [], members: [], revenueRates: [], costRates: [], entries: [], warnings: [] };
  const warn = (row: number, column: string | null, message: string) => plan.warnings.push({ row, column, code: 'kept-existing', message });

  const names = new Map<string, string>();
  const clientOf = finder(directory.clients, (key) => {
    const client = { id: newId(), name: names.get(key)! };
    plan.clients.push(client);
    return client.id;
  });
  const projectOf = finder(directory.projects, (key) => {
    const project = { id: newId(), name: names.get(key)!, clientId: pendingClient };
    plan.projects.push(project);
    return { id: project.id, clientId: project.clientId, billable: false };
  });
  let pendingClient: string | null = null;
  const taskOf = finder(directory.tasks, (key) => {
    const [projectId] = key.split('\n');
    const task = { id: newId(), projectId, name: names.get(key)! };
    plan.tasks.push(task);
    return { id: task.id, billable: null };
  });
  const tagOf = finder(directory.tags, (key) => {
    const tag = { id: newId(), name: names.get(key)! };
    plan.tags.push(tag);
    return tag.id;
  });
  const userOf = finder(directory.usersByEmail, (email) => {
    const user = { id: newId(), email, name: names.get(`user\n${email}`) ?? null };
    plan.users.push(user);
    return user.id;
  });
  const memberOf = finder(directory.members, (key) => {
    const [projectId, userId] = key.split('\n');
    const member = { id: newId(), projectId, userId };
    plan.members.push(member);
    return member.id;
  });

  const warnedProjects = new Set<string>();
  const revenueRuns = new Map<string, Array<{ entry: ReadEntry; projectId: string; memberId: string }>>();
  const costRuns = new Map<string, Array<{ entry: ReadEntry; userId: string }>>();
  for (const entry of entries) {
    let userId: string;
    if ('userId' in entry.person) userId = entry.person.userId;
    else {
      if (entry.person.name) names.set(`user\n${entry.person.email}`, entry.person.name);
      userId = userOf(entry.person.email);
    }

    let project: { id: string; clientId: string | null; billable: boolean } | undefined;
    if (entry.project) {
      let clientId: string | null = null;
      if (entry.client) {
        names.set(nameKey(entry.client), entry.client);
        clientId = clientOf(nameKey(entry.client));
      }
      const key = nameKey(entry.project);
      names.set(key, entry.project);
      pendingClient = clientId;
      project = projectOf(key);
      if (clientId !== null && project.clientId !== clientId && !warnedProjects.has(project.id)) {
        warnedProjects.add(project.id);
        warn(entry.row, null, `The project "${entry.project}" keeps its client; the file names "${entry.client}".`);
      }
    }
    let task: { id: string; billable: boolean | null } | undefined;
    if (entry.task && project) {
      const key = `${project.id}\n${nameKey(entry.task)}`;
      names.set(key, entry.task);
      task = taskOf(key);
    }
    const tagIds = entry.tags.map((tag) => {
      names.set(nameKey(tag), tag);
      return tagOf(nameKey(tag));
    });
    const memberId = project ? memberOf(`${project.id}\n${userId}`) : undefined;
    plan.entries.push({
      id: newId(),
      row: entry.row,
      userId,
      projectId: project?.id ?? null,
      taskId: task?.id ?? null,
      name: entryName(entry),
      // docs/rules.md §6 Activities: task and tags: the file's, else the task's, else the project's.
      billable: entry.billable ?? task?.billable ?? project?.billable ?? false,
      startedAt: entry.startedAt,
      endedAt: entry.endedAt,
      tagIds: [...new Set(tagIds)],
      key: entry.key,
    });
    if (entry.revenueRate !== null && project && memberId) {
      const runs = revenueRuns.get(memberId) ?? [];
      runs.push({ entry, projectId: project.id, memberId });
      revenueRuns.set(memberId, runs);
    }
    if (entry.costRate !== null) {
      const runs = costRuns.get(userId) ?? [];
      runs.push({ entry, userId });
      costRuns.set(userId, runs);
    }
  }

  for (const [memberId, runs] of revenueRuns) {
    for (const period of ratePeriods(runs.map((run) => run.entry), 'revenueRate', directory.organizationCurrency)) {
      if (keepsExisting(period, directory.revenueRates.get(memberId) ?? [], warn, 'revenue')) continue;
      plan.revenueRates.push({ ...period.rate, id: newId(), projectId: runs[0].projectId, memberId });
    }
  }
  for (const [userId, runs] of costRuns) {
    for (const period of ratePeriods(runs.map((run) => run.entry), 'costRate', directory.organizationCurrency)) {
      if (keepsExisting(period, directory.costRates.get(userId) ?? [], warn, 'cost')) continue;
      plan.costRates.push({ ...period.rate, id: newId(), userId });
    }
  }
  return plan;
}

/**
 * The rate periods a file's entries give one member (or user): each run of entries with one rate, in
 * time order, from its first entry's start to the next run's first start; the last run to its last end.
 */
function ratePeriods(entries: readonly ReadEntry[], field: 'revenueRate' | 'costRate', fallbackCurrency: string): Array<{ rate: RatePeriod; row: number }> {
  const sorted = [...entries].sort((a, b) => (a.startedAt < b.startedAt ? -1 : a.startedAt > b.startedAt ? 1 : 0));
  const periods: Array<{ rate: RatePeriod; row: number }> = [];
  for (const entry of sorted) {
    const value = entry[field]!;
    const currency = entry.currency ?? fallbackCurrency;
    const last = periods.at(-1);
    if (last && last.rate.value === value && last.rate.currency === currency) {
      if (entry.endedAt > last.rate.to!) last.rate.to = entry.endedAt;
      continue;
    }
    if (last) last.rate.to = entry.startedAt;
    periods.push({ rate: { from: entry.startedAt, to: entry.endedAt, value, currency }, row: entry.row });
  }
  // A period of no length (an entry of 0 seconds) is no period.
  return periods.filter((period) => period.rate.to! > period.rate.from);
}

/** Whether a rate already in force over part of the period keeps the period from being written (a warning when it differs). */
function keepsExisting(
  period: { rate: RatePeriod; row: number },
  existing: readonly RatePeriod[],
  warn: (row: number, column: string | null, message: string) => void,
  kind: string,
): boolean {
  const overlapping = existing.filter((rate) => rate.from < period.rate.to! && (rate.to === null || rate.to > period.rate.from));
  if (overlapping.length === 0) return false;
  if (overlapping.some((rate) => rate.value !== period.rate.value || rate.currency !== period.rate.currency)) {
    const rate = overlapping[0];
    warn(period.row, null, `The ${kind} rate in force (${rate.value} ${rate.currency}) is kept; the file has ${period.rate.value} ${period.rate.currency}.`);
  }
  return true;
}
