import { sql, type RawBuilder } from 'kysely';
import { dialectOf, type Db, type Dialect } from '../../db/database.js';
import { readableRows } from '../../db/record-scopes.js';
import { fromDbBool, toDbBool } from '../../db/values.js';
import type { ReaderScope } from '../../domain/policy.js';
import type { ReportPeriod } from './engine/period.js';
import { roundSeconds, type Rounding } from './engine/rounding.js';
import type { EntryFilters } from './engine/filters.js';
import type { EntryKey, EntrySelection, ReportEntry } from './engine/selection.js';

/*
 * The SQL of the entries a report counts, on either store: the conditions of the selection (the
 * summary's statement, summary-repository.ts, takes them too) and the pages of entries with their
 * rates. Every rule here is in docs/rules.md §6 Reports; the run's context (period, zone, access) is
 * made by run-preparation.ts, the engine's filters give data that the conditions turn into SQL.
 */

/** A run's selection with the policy's scopes, which the conditions narrow rows by (db/record-scopes.ts). */
export type SelectionSpec = EntrySelection<ReaderScope>;

const FALSE = toDbBool(false);
const TRUE = toDbBool(true);

/**
 * The rows a reader scope reaches (db/record-scopes.ts): `own` by the entry's user, `member` and
 * `administered` by its project. Null: every row of the workspace.
 */
export const scopeCondition = (scope: ReaderScope, organizationId: string, userColumn: string, projectColumn: string) =>
  readableRows(scope, { organizationId, userColumn, projectColumn });

const and = (conditions: Array<RawBuilder<unknown> | null>) => sql.join(conditions.filter((c) => c !== null), sql` and `);

const inList = (column: string, ids: readonly string[]) => (ids.length === 0 ? sql`1 = 0` : sql`${sql.ref(column)} in (${sql.join(ids)})`);

/** Rows whose column holds one of the ids, or (`orNull`) none; no row for an empty list without null. */
function idsOrNull(column: string, ids: readonly string[], orNull: boolean): RawBuilder<unknown> {
  const listed = ids.length === 0 ? null : inList(column, ids);
  if (orNull) return listed === null ? sql`${sql.ref(column)} is null` : sql`(${listed} or ${sql.ref(column)} is null)`;
  return listed ?? sql`1 = 0`;
}

/** Entries on a project of these clients, or (`noClient`) on a project without one or on none. */
function clientCondition(organizationId: string, ids: readonly string[], noClient: boolean): RawBuilder<unknown> {
  if (ids.length === 0 && !noClient) return sql`1 = 0`;
  const ofClients = sql`a.project_id in (select cp.id from projects cp where cp.organization_id = ${organizationId} and ${idsOrNull('cp.client_id', ids, noClient)})`;
  return noClient ? sql`(a.project_id is null or ${ofClients})` : ofClients;
}

/** Whether the entry carries some tag (of these ids, when given): one probe of activity_tags' key. */
const carries = (ids?: readonly string[]) =>
  sql`exists (select 1 from activity_tags ft where ft.activity_id = a.id${ids === undefined ? sql`` : sql` and ft.tag_id in (${sql.join(ids)})`})`;

/**
 * An entry's tags against a tagIds filter (docs/rules.md §6 Reports, "Filters"): `any` of the ids,
 * `all` of them, or `none` of them; `untagged` (null in the list) is the "no tag" of an entry without
 * tags, so `any` also keeps those, `all` keeps only those (when it lists no tag beside it), `none`
 * leaves them out.
 */
function tagCondition({ ids, untagged, match }: EntryFilters['tagIds'][number]): RawBuilder<unknown> | null {
  const listed = ids.length === 0 ? null : ids;
  switch (match) {
    case 'any': {
      const either = [listed === null ? null : carries(listed), untagged ? sql`not ${carries()}` : null].filter((c) => c !== null);
      return either.length === 0 ? sql`1 = 0` : sql`(${sql.join(either, sql` or `)})`;
    }
    case 'all':
      if (untagged) return listed === null ? sql`not ${carries()}` : sql`1 = 0`;
      // The key (activity_id, tag_id) holds each tag of an entry once: all of them is as many as listed.
      return listed === null
        ? null
        : sql`(select count(*) from activity_tags ft where ft.activity_id = a.id and ft.tag_id in (${sql.join(listed)})) = ${listed.length}`;
    case 'none': {
      const neither = [listed === null ? null : sql`not ${carries(listed)}`, untagged ? carries() : null].filter((c) => c !== null);
      return neither.length === 0 ? null : and(neither);
    }
  }
}

/**
 * The conditions on one activity (alias `a`): the workspace, closed, startedAt in the period (the
 * range of the activities_organization_started index), visible to the caller, and the filters that
 * look at the entry itself (billable, users, projects, clients, tasks, tags, name).
 */
export function entryConditions(dialect: Dialect, spec: SelectionSpec, slice?: RawBuilder<unknown>): RawBuilder<unknown> {
  const { filters, organizationId } = spec;
  const conditions: Array<RawBuilder<unknown> | null> = [
    ...(slice === undefined
      ? [sql`a.organization_id = ${organizationId}`, scopeCondition(spec.entries, organizationId, 'a.user_id', 'a.project_id')]
      : [slice]),
    sql`a.started_at >= ${spec.period.start}`,
    sql`a.started_at < ${spec.period.end}`,
    sql`a.ended_at is not null`,
  ];
  for (const billable of filters.billable) conditions.push(sql`a.billable = ${toDbBool(billable)}`);
  for (const ids of filters.userIds) conditions.push(inList('a.user_id', ids));
  for (const { ids, noProject } of filters.projectIds) conditions.push(idsOrNull('a.project_id', ids, noProject));
  for (const { ids, noClient } of filters.clientIds) conditions.push(clientCondition(organizationId, ids, noClient));
  for (const { ids, noTask } of filters.taskIds) conditions.push(idsOrNull('a.task_id', ids, noTask));
  for (const filter of filters.tagIds) conditions.push(tagCondition(filter));
  // ASCII letters without regard to case, every other character exactly, the same on both stores:
  // SQLite's lower() folds ASCII only, as PostgreSQL's does under the "C" collation.
  for (const text of filters.nameContains) {
    conditions.push(
      dialect === 'postgres'
        ? sql`strpos(lower(a.name collate "C"), lower(${text} collate "C")) > 0`
        : sql`instr(lower(a.name), lower(${text})) > 0`,
    );
  }
  if (spec.selectedProjects !== null) conditions.push(inList('a.project_id', spec.selectedProjects));
  return and(conditions);
}


/**
 * The conditions on an entry's user (alias `u`), project (`p`) and membership (`pm`: the entry's user
 * in its project, if any): archived projects and members (an archived user, or an archived
 * membership in the entry's project), and the selected members.
 */
export function pairConditions(spec: SelectionSpec): RawBuilder<unknown> {
  const conditions: Array<RawBuilder<unknown> | null> = [];
  if (!spec.showArchivedProjects) conditions.push(sql`(p.id is null or p.archived = ${FALSE})`);
  if (!spec.showArchivedMembers) conditions.push(sql`u.archived = ${FALSE} and (pm.id is null or pm.archived = ${FALSE})`);
  if (spec.selectedProjectMembers !== null) conditions.push(inList('pm.id', spec.selectedProjectMembers));
  return conditions.length === 0 ? sql`1 = 1` : and(conditions);
}

/** An entry's length in whole seconds (milliseconds dropped), from the canonical instants. */
export function secondsSql(dialect: Dialect): string {
  if (dialect === 'postgres') {
    return 'floor(extract(epoch from a.ended_at::timestamptz) - extract(epoch from a.started_at::timestamptz))::bigint';
  }
  // unixepoch drops the milliseconds (characters 21–23 of the canonical form): added back, then whole seconds.
  return (
    '(((unixepoch(a.ended_at) - unixepoch(a.started_at)) * 1000 + cast(substr(a.ended_at, 21, 3) as integer)' +
    ' - cast(substr(a.started_at, 21, 3) as integer)) / 1000)'
  );
}

/** roundSeconds (engine/rounding.ts) in SQL over a non-negative integer expression (integer division truncates in both stores). */
export function roundedSecondsSql(seconds: string, rounding: Rounding): string {
  if (!rounding.enabled) return seconds;
  const step = rounding.interval * 60;
  switch (rounding.mode) {
    case 'DOWN':
      return `((${seconds}) / ${step} * ${step})`;
    case 'UP':
      return `(((${seconds}) + ${step - 1}) / ${step} * ${step})`;
    case 'NEAREST':
      return `(((${seconds}) + ${step / 2}) / ${step} * ${step})`;
  }
}

/**
 * The statement of one page of a run's entries, after a key, in (startedAt, id) order: the order of
 * the workspace's index (migration 0014), so a page is read in order and ends at its limit.
 */
export function entriesPageStatement(
  dialect: Dialect,
  spec: SelectionSpec,
  archived: ArchivedSets,
  page: { after?: EntryKey; limit: number },
): RawBuilder<EntryRow> {
  const after = page.after === undefined ? sql`` : sql` and a.started_at >= ${page.after.startedAt} and (a.started_at > ${page.after.startedAt} or a.id > ${page.after.id})`;
  const readable = spec.revenue === null ? null : scopeCondition(spec.revenue, spec.organizationId, 'a.user_id', 'a.project_id');
  return sql<EntryRow>`select a.id, a.name, a.user_id, a.project_id, a.task_id, a.tag_ids, a.billable, a.started_at, a.ended_at,
      ${readable === null ? sql`1` : sql`case when ${readable} then 1 else 0 end`} as revenue_readable
    from activities a
    where ${entryConditions(dialect, spec)} and ${entryPairConditions(spec, archived)}${after}
    order by a.started_at, a.id
    limit ${sql.lit(page.limit)}`;
}

/**
 * The report's entries in (startedAt, id) order, a page at a time: the very selection the summary
 * counts (same visibility, filters, archived rules and rounding), each with its rates in force.
 * The statement reads the index range of the entries alone: the archived sets are read once for the
 * run (EntryLookups) and each entry's membership and rates are looked up once per member and user,
 * not joined to every entry (a workspace has few of them, an export many entries).
 */
export async function reportEntriesPage(
  db: Db,
  spec: SelectionSpec,
  page: { after?: EntryKey; limit: number; lookups?: EntryLookups },
): Promise<ReportEntry[]> {
  const lookups = page.lookups ?? (await entryLookups(db, spec));
  const { rows } = await entriesPageStatement(dialectOf(db), spec, lookups.archived, page).execute(db);
  if (rows.length === 0) return [];
  await lookUp(db, lookups, rows);
  return rows.map((row) => {
    const readableRow = Number(row.revenue_readable) === 1;
    const memberId = row.project_id === null ? null : (lookups.members.get(row.project_id)?.get(row.user_id) ?? null);
    const revenue = memberId === null ? null : rateAt(lookups.revenueRates.get(memberId), row.started_at);
    const duration = wholeSeconds(row.started_at, row.ended_at);
    return {
      id: row.id,
      name: row.name,
      userId: row.user_id,
      projectId: row.project_id,
      memberId,
      task: row.task_id === null ? null : { id: row.task_id, name: lookups.tasks.get(row.task_id) ?? row.task_id },
      tagIds: tagIdsOf(row.tag_ids),
      billable: fromDbBool(row.billable),
      startedAt: row.started_at,
      endedAt: row.ended_at,
      duration,
      roundedDuration: roundSeconds(duration, spec.rounding),
      revenueRate: readableRow ? revenue : null,
      revenueReadable: readableRow,
      costRate: rateAt(lookups.costRates.get(row.user_id), row.started_at),
    };
  });
}

/**
 * What the entries of a run need beside themselves, read once for the run: the archived projects,
 * users and memberships its rules leave out, the membership of each entry's user in its project
 * (null: none), the names of the entries' tasks, and the revenue and cost rates of the period by
 * member and by user. A long export reads its pieces with one, so only a piece bringing a new member,
 * user or task looks anything up.
 */
export interface EntryLookups {
  organizationId: string;
  period: ReportPeriod;
  archived: ArchivedSets;
  /** By project, then user. */
  members: Map<string, Map<string, string | null>>;
  /** Task names by id. */
  tasks: Map<string, string>;
  revenueRates: Map<string, RatePeriod[]>;
  costRates: Map<string, RatePeriod[]>;
}

/** The workspace's archived projects, users and memberships (project, user) that a run leaves out (empty when it shows them). */
export interface ArchivedSets {
  projects: string[];
  users: string[];
  memberships: Array<[string, string]>;
}

/** The lookups of a run, its archived sets read now (in the run's snapshot, on PostgreSQL). */
export async function entryLookups(db: Db, spec: SelectionSpec): Promise<EntryLookups> {
  const { organizationId } = spec;
  const [projects, users, memberships] = await Promise.all([
    spec.showArchivedProjects ? [] : idsOf(sql`select id from projects where organization_id = ${organizationId} and archived = ${TRUE}`, db),
    spec.showArchivedMembers ? [] : idsOf(sql`select id from users where organization_id = ${organizationId} and archived = ${TRUE}`, db),
    spec.showArchivedMembers
      ? []
      : sql<{ project_id: string; user_id: string }>`select project_id, user_id from project_members where organization_id = ${organizationId} and archived = ${TRUE}`
          .execute(db)
          .then(({ rows }) => rows.map((row): [string, string] => [row.project_id, row.user_id])),
  ]);
  return { organizationId, period: spec.period, archived: { projects, users, memberships }, members: new Map(), tasks: new Map(), revenueRates: new Map(), costRates: new Map() };
}

const idsOf = async (statement: RawBuilder<unknown>, db: Db): Promise<string[]> =>
  ((await statement.execute(db)).rows as Array<{ id: string }>).map((row) => row.id);

/** Reads into the lookups what these entries need and they do not hold yet. */
async function lookUp(db: Db, lookups: EntryLookups, rows: ReadonlyArray<Pick<EntryRow, 'project_id' | 'user_id' | 'task_id'>>): Promise<void> {
  const pairs = new Map<string, [string, string]>();
  const users = new Set<string>();
  const tasks = new Set<string>();
  for (const row of rows) {
    if (!lookups.costRates.has(row.user_id)) users.add(row.user_id);
    if (row.task_id !== null && !lookups.tasks.has(row.task_id)) tasks.add(row.task_id);
    if (row.project_id !== null && lookups.members.get(row.project_id)?.has(row.user_id) !== true) {
      pairs.set(`${row.project_id} ${row.user_id}`, [row.project_id, row.user_id]);
    }
  }
  const newMembers = await membershipsOf(db, lookups, pairs);
  await ratePeriods(db, 'revenue_rates', 'member_id', newMembers, lookups.period, lookups.revenueRates);
  await ratePeriods(db, 'cost_rates', 'user_id', [...users], lookups.period, lookups.costRates);
  await taskNames(db, lookups, [...tasks]);
}

/** Records the names of these tasks. */
async function taskNames(db: Db, lookups: EntryLookups, ids: string[]): Promise<void> {
  if (ids.length === 0) return;
  const { rows } = await sql<{ id: string; name: string }>`select id, name from tasks
    where organization_id = ${lookups.organizationId} and id in (${sql.join(ids)})`.execute(db);
  for (const row of rows) lookups.tasks.set(row.id, row.name);
}

/** An entry's tag ids from the activity's `tag_ids` text, in its order. */
const tagIdsOf = (text: string): string[] => (text === '[]' ? [] : (JSON.parse(text) as string[]));

/** An entry's length in whole seconds, milliseconds dropped (as secondsSql computes it in a statement). */
const wholeSeconds = (startedAt: string, endedAt: string): number => Math.floor((Date.parse(endedAt) - Date.parse(startedAt)) / 1000);

/** Ids written into a statement at most; a longer set is read by the statement's subquery instead. */
const LISTED_AT_MOST = 200;

/** The members of a set as a statement's `in (…)` list: the values themselves, or the subquery that reads them when there are many. */
const among = (values: RawBuilder<unknown>[], subquery: RawBuilder<unknown>) => (values.length <= LISTED_AT_MOST ? sql.join(values) : subquery);

/**
 * pairConditions on the entry alone (alias `a`, no joins): not an archived project, user or
 * membership of the run's sets (none at all when the workspace has none), and a selected member.
 */
function entryPairConditions(spec: SelectionSpec, archived: ArchivedSets): RawBuilder<unknown> {
  const { organizationId } = spec;
  const conditions: Array<RawBuilder<unknown>> = [];
  if (archived.projects.length > 0) {
    const ids = among(
      archived.projects.map((id) => sql`${id}`),
      sql`select ap.id from projects ap where ap.organization_id = ${organizationId} and ap.archived = ${TRUE}`,
    );
    conditions.push(sql`(a.project_id is null or a.project_id not in (${ids}))`);
  }
  if (archived.users.length > 0) {
    const ids = among(
      archived.users.map((id) => sql`${id}`),
      sql`select au.id from users au where au.organization_id = ${organizationId} and au.archived = ${TRUE}`,
    );
    conditions.push(sql`a.user_id not in (${ids})`);
  }
  if (archived.memberships.length > 0) {
    // A row value's `in` takes a subquery on SQLite: the listed pairs as VALUES.
    const pairs =
      archived.memberships.length <= LISTED_AT_MOST
        ? sql`values ${sql.join(archived.memberships.map(([projectId, userId]) => sql`(${projectId}, ${userId})`))}`
        : sql`select am.project_id, am.user_id from project_members am where am.organization_id = ${organizationId} and am.archived = ${TRUE}`;
    conditions.push(sql`(a.project_id is null or (a.project_id, a.user_id) not in (${pairs}))`);
  }
  if (spec.selectedProjectMembers !== null) {
    conditions.push(
      spec.selectedProjectMembers.length === 0
        ? sql`1 = 0`
        : sql`(a.project_id, a.user_id) in (select sm.project_id, sm.user_id from project_members sm where sm.organization_id = ${organizationId} and sm.id in (${sql.join(spec.selectedProjectMembers)}))`,
    );
  }
  return conditions.length === 0 ? sql`1 = 1` : and(conditions);
}

/** Records the memberships of these (project, user) pairs (null for a pair without one); answers the ids of those found. */
async function membershipsOf(db: Db, lookups: EntryLookups, pairs: Map<string, [string, string]>): Promise<string[]> {
  if (pairs.size === 0) return [];
  const values = sql.join([...pairs.values()].map(([projectId, userId]) => sql`(${projectId}, ${userId})`));
  const { rows } = await sql<{ id: string; project_id: string; user_id: string }>`select id, project_id, user_id from project_members
    where organization_id = ${lookups.organizationId} and (project_id, user_id) in (values ${values})`.execute(db);
  const record = (projectId: string, userId: string, memberId: string | null) => {
    const ofProject = lookups.members.get(projectId) ?? new Map<string, string | null>();
    ofProject.set(userId, memberId);
    lookups.members.set(projectId, ofProject);
  };
  for (const [projectId, userId] of pairs.values()) record(projectId, userId, null);
  for (const row of rows) record(row.project_id, row.user_id, row.id);
  return rows.map((row) => row.id);
}

interface RatePeriod {
  id: string;
  currency: string;
  value: number;
  from: string;
  to: string | null;
}

/** Records the rate periods of these members (or users) in force at some instant of the period, by owner (an empty list for none). */
async function ratePeriods(
  db: Db,
  table: 'revenue_rates' | 'cost_rates',
  owner: 'member_id' | 'user_id',
  ownerIds: string[],
  period: ReportPeriod,
  byOwner: Map<string, RatePeriod[]>,
): Promise<void> {
  if (ownerIds.length === 0) return;
  for (const id of ownerIds) byOwner.set(id, []);
  const { rows } = await sql<{ owner: string; id: string; currency: string; value: number | string; from_at: string; to_at: string | null }>`
    select ${sql.ref(owner)} as owner, id, currency, value, from_at, to_at from ${sql.table(table)}
    where ${sql.ref(owner)} in (${sql.join(ownerIds)}) and from_at < ${period.end} and (to_at is null or to_at > ${period.start})`.execute(db);
  for (const row of rows) {
    byOwner.get(row.owner)!.push({ id: row.id, currency: row.currency, value: Number(row.value), from: row.from_at, to: row.to_at });
  }
}

/** The rate in force at the instant: from its start (inclusive) to its end (exclusive, or open). */
function rateAt(periods: RatePeriod[] | undefined, at: string): RatePeriod | null {
  for (const period of periods ?? []) {
    if (period.from <= at && (period.to === null || period.to > at)) return period;
  }
  return null;
}

interface EntryRow {
  id: string;
  name: string;
  user_id: string;
  project_id: string | null;
  task_id: string | null;
  /** A JSON array text of ids (migration 0019). */
  tag_ids: string;
  billable: boolean | number;
  started_at: string;
  ended_at: string;
  revenue_readable: number | string;
}
