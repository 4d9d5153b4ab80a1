import { sql, type RawBuilder } from 'kysely';
import { dialectOf, type Db, type Dialect } from '../../../db/database.js';
import { readableRows } from '../../../db/record-scopes.js';
import { fromDbBool, toDbBool } from '../../../db/values.js';
import type { ReaderScope } from '../../../domain/policy.js';
import { weekKeyOfMonday, type TimeDimension } from './buckets.js';
import type { EntryFilters } from './filters.js';
import type { ReportPeriod } from './period.js';
import { roundedSecondsSql, roundSeconds, type Rounding } from './rounding.js';

/*
 * The SQL of a report run (the reports area's repository for running reports): which activities a
 * report counts, and their rounded durations, rates and buckets, on either store. Every rule here is
 * in docs/rules.md §6 Reports; the run's context (period, zone, access) is made by run.ts.
 */

/** Everything that decides which entries a run counts and how (made by prepareReportRun). */
export interface SelectionSpec {
  organizationId: string;
  /** `[start, end)`, canonical UTC, within the instants both stores compute with (see clampPeriod). */
  period: ReportPeriod;
  rounding: Rounding;
  filters: EntryFilters;
  selectedProjects: string[] | null;
  selectedProjectMembers: string[] | null;
  showArchivedProjects: boolean;
  showArchivedMembers: boolean;
  /** Whose activities the caller sees: exactly GET /activities' visibility (policy `activities:read`). */
  entries: ReaderScope;
  /** Whose revenue the caller may read (policy `rates:revenue`); null when the run shows no revenue. */
  revenue: ReaderScope | null;
}

/** The instants a report can cover: both stores compute calendar dates within them (PostgreSQL knows no year 0). */
const EARLIEST = '0001-01-02T00:00:00.000Z';
const LATEST = '9999-12-30T00:00:00.000Z';

export function clampPeriod(period: ReportPeriod): ReportPeriod {
  const start = period.start < EARLIEST ? EARLIEST : period.start > LATEST ? LATEST : period.start;
  const end = period.end > LATEST ? LATEST : period.end < start ? start : period.end;
  return { start, end };
}

const FALSE = toDbBool(false);
const TRUE = toDbBool(true);

/**
 * The rows a reader scope reaches (db/record-scopes.ts): `own` by the entry's user, `member` and
 * `administered` by its project. Null: every row of the workspace.
 */
const scopeCondition = (scope: ReaderScope, organizationId: string, userColumn: string, projectColumn: string) =>
  readableRows(scope, { organizationId, userColumn, projectColumn });

const and = (conditions: Array<RawBuilder<unknown> | null>) => sql.join(conditions.filter((c) => c !== null), sql` and `);

const inList = (column: string, ids: readonly string[]) => (ids.length === 0 ? sql`1 = 0` : sql`${sql.ref(column)} in (${sql.join(ids)})`);

/**
 * The conditions on one activity (alias `a`): the workspace, closed, startedAt in the period (the
 * range of the activities_organization_started index), visible to the caller, and the filters that
 * look at the entry itself (billable, users, projects, name).
 */
function entryConditions(dialect: Dialect, spec: SelectionSpec, slice?: RawBuilder<unknown>): RawBuilder<unknown> {
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
  for (const { ids, noProject } of filters.projectIds) {
    const listed = ids.length === 0 ? null : inList('a.project_id', ids);
    if (noProject) conditions.push(listed === null ? sql`a.project_id is null` : sql`(${listed} or a.project_id is null)`);
    else conditions.push(listed ?? sql`1 = 0`);
  }
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
 * The activities a summary reads (alias `a`): for an Administrator, the workspace's range of
 * activities_organization_started; for a User, one branch per scope that reaches them (their own: the
 * range of activities_user_listing; the projects they administer: each project's range of
 * activities_project_started), each leaving out the rows of the branches before it, so no entry
 * counts twice and no branch reads the whole workspace's period.
 */
function summarySource(dialect: Dialect, spec: SelectionSpec): RawBuilder<unknown> {
  const { entries, organizationId } = spec;
  if (entries.all) return sql`activities a where ${entryConditions(dialect, spec)}`;
  const reach = (scope: (typeof entries.scopes)[number]) =>
    readableRows({ all: false, userId: entries.userId, scopes: [scope] }, { organizationId, userColumn: 'a.user_id', projectColumn: 'a.project_id' });
  const branches = entries.scopes.map((scope, index) => {
    const earlier = entries.scopes.slice(0, index).map((before) => sql`not ${reach(before)}`);
    const slice = sql.join([reach(scope), ...earlier], sql` and `);
    return sql`select a.user_id, a.project_id, a.billable, a.started_at, a.ended_at from activities a where ${entryConditions(dialect, spec, slice)}`;
  });
  if (branches.length === 0) return sql`activities a where 1 = 0`;
  return sql`(${sql.join(branches, sql` union all `)}) a`;
}

/**
 * The conditions on an entry's user (alias `u`), project (`p`) and membership (`pm`: the entry's user
 * in its project, if any): archived projects and members (an archived user, or an archived
 * membership in the entry's project), and the selected members.
 */
function pairConditions(spec: SelectionSpec): RawBuilder<unknown> {
  const conditions: Array<RawBuilder<unknown> | null> = [];
  if (!spec.showArchivedProjects) conditions.push(sql`(p.id is null or p.archived = ${FALSE})`);
  if (!spec.showArchivedMembers) conditions.push(sql`u.archived = ${FALSE} and (pm.id is null or pm.archived = ${FALSE})`);
  if (spec.selectedProjectMembers !== null) conditions.push(inList('pm.id', spec.selectedProjectMembers));
  return conditions.length === 0 ? sql`1 = 1` : and(conditions);
}

/** An entry's length in whole seconds (milliseconds dropped), from the canonical instants. */
function secondsSql(dialect: Dialect): string {
  if (dialect === 'postgres') {
    return 'floor(extract(epoch from a.ended_at::timestamptz) - extract(epoch from a.started_at::timestamptz))::bigint';
  }
  // unixepoch drops the milliseconds (characters 21–23 of the canonical form): added back, then whole seconds.
  return (
    '(((unixepoch(a.ended_at) - unixepoch(a.started_at)) * 1000 + cast(substr(a.ended_at, 21, 3) as integer)' +
    ' - cast(substr(a.started_at, 21, 3) as integer)) / 1000)'
  );
}

const INSTANT = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

/** A canonical instant as an SQL literal (only instants this code made: checked, never client text). */
function instantLiteral(at: string): string {
  if (!INSTANT.test(at)) throw new Error(`not a canonical instant: ${at}`);
  return `'${at}'`;
}

/**
 * `values[i]` for the i-th interval that `boundaries` (ascending instants) cut the timeline into, by
 * the column's instant: a nested CASE that finds it in log2(intervals) comparisons.
 */
function intervalCase(column: string, boundaries: readonly string[], values: readonly string[]): string {
  const pick = (low: number, high: number): string => {
    if (low === high) return values[low];
    const middle = (low + high + 1) >> 1;
    return `(case when ${column} < ${instantLiteral(boundaries[middle - 1])} then ${pick(low, middle - 1)} else ${pick(middle, high)} end)`;
  };
  return pick(0, values.length - 1);
}

/** An instant in the zone's offset: offsets (seconds) and the instants they change at, from buckets.offsetSegments. */
export interface ZoneOffsets {
  changes: string[];
  offsets: number[];
}

/**
 * The bucket of an entry's startedAt in the report's zone (day `2026-07-01`, week by its Monday
 * `2026-06-29`, month `2026-07`): its instant moved by the zone's offset at that very instant, so
 * each entry takes the offset of its own side of a DST change.
 */
function bucketSql(dialect: Dialect, dimension: TimeDimension, zone: ZoneOffsets): string {
  if (dialect === 'postgres') {
    const seconds = intervalCase('a.started_at', zone.changes, zone.offsets.map(String));
    const local = `((a.started_at::timestamptz + ${seconds} * interval '1 second') at time zone 'UTC')`;
    if (dimension === 'day') return `to_char(${local}, 'YYYY-MM-DD')`;
    if (dimension === 'month') return `to_char(${local}, 'YYYY-MM')`;
    return `to_char(date_trunc('week', ${local}), 'YYYY-MM-DD')`;
  }
  const modifier = intervalCase('a.started_at', zone.changes, zone.offsets.map((offset) => `'${offset >= 0 ? '+' : ''}${offset} seconds'`));
  if (dimension === 'day') return `date(a.started_at, ${modifier})`;
  if (dimension === 'month') return `substr(date(a.started_at, ${modifier}), 1, 7)`;
  return `date(a.started_at, ${modifier}, '-6 days', 'weekday 1')`;
}

/** The instants in the period where a revenue or cost rate of the workspace starts or ends. */
export async function rateChangesIn(db: Db, organizationId: string, period: ReportPeriod): Promise<string[]> {
  const inPeriod = (table: 'revenue_rates' | 'cost_rates', column: 'from_at' | 'to_at') =>
    sql`select ${sql.ref(column)} as at from ${sql.table(table)} where organization_id = ${organizationId} and ${sql.ref(column)} > ${period.start} and ${sql.ref(column)} < ${period.end}`;
  const { rows } = await sql<{ at: string }>`${inPeriod('revenue_rates', 'from_at')} union ${inPeriod('revenue_rates', 'to_at')} union ${inPeriod('cost_rates', 'from_at')} union ${inPeriod('cost_rates', 'to_at')}`.execute(db);
  return rows.map((row) => row.at).sort();
}

/** The rate columns of an entry or group, in force at the instant of `at` (the revenue rate of its membership, the cost rate of its user). */
const RATE_JOINS = (at: string, user: string) =>
  `left join revenue_rates rr on rr.member_id = pm.id and rr.from_at <= ${at} and (rr.to_at is null or rr.to_at > ${at})` +
  ` left join cost_rates cr on cr.user_id = ${user} and cr.from_at <= ${at} and (cr.to_at is null or cr.to_at > ${at})`;

const RATE_COLUMNS =
  'rr.id as revenue_rate_id, rr.currency as revenue_currency, rr.value as revenue_value, ' +
  'cr.id as cost_rate_id, cr.currency as cost_currency, cr.value as cost_value';

/** One group of a summary: entries of one user on one project (or none), in one bucket of each time dimension, under one pair of rates. */
export interface SummaryGroup {
  userId: string;
  projectId: string | null;
  memberId: string | null;
  /** Per time dimension asked for: day `2026-07-01`, week `2026-W27`, month `2026-07`. */
  buckets: Partial<Record<TimeDimension, string>>;
  entries: number;
  billableEntries: number;
  /** Rounded seconds. */
  time: number;
  billableTime: number;
  revenueRate: { currency: string; value: number } | null;
  costRate: { currency: string; value: number } | null;
  /** Whether the caller may read this group's revenue (rates:revenue on its project). */
  revenueReadable: boolean;
}

export interface SummaryQuery {
  timeDimensions: TimeDimension[];
  zone: ZoneOffsets;
  /** Look up rates (false when no money metric is asked for). */
  withRates: boolean;
  /** The instants where some rate changes, from rateChangesIn. */
  rateChanges: string[];
}

/**
 * The summary's aggregate: one SQL statement. The inner query reads the period's range of activities
 * (activities_organization_started, or a User's own index ranges) and groups it by user, project, the
 * asked time buckets and the rate period (the stretch between two rate changes, in which every
 * entry of one member has the same rates), rounding each entry before summing. The outer query joins
 * those few groups, not the entries, to users, projects, memberships and the rates in force.
 */
export function summaryStatement(dialect: Dialect, spec: SelectionSpec, query: SummaryQuery): RawBuilder<GroupRow> {
  const rounded = roundedSecondsSql(secondsSql(dialect), spec.rounding);
  const keys = query.timeDimensions.map((dimension) => `${bucketSql(dialect, dimension, query.zone)} as b_${dimension}`);
  const rateAt = query.withRates
    ? intervalCase('a.started_at', query.rateChanges, [spec.period.start, ...query.rateChanges].map(instantLiteral))
    : null;
  if (rateAt !== null) keys.push(`${rateAt} as rate_at`);
  const grouped = ['a.user_id', 'a.project_id', ...keys];
  const inner = sql`select ${sql.raw(grouped.join(', '))}, count(*) as entries, sum(${sql.raw(rounded)}) as time,
    sum(case when a.billable then ${sql.raw(rounded)} else 0 end) as billable_time, sum(case when a.billable then 1 else 0 end) as billable_entries
    from ${summarySource(dialect, spec)}
    group by ${sql.raw(grouped.map((_, index) => String(index + 1)).join(', '))}`;
  const bucketColumns = query.timeDimensions.map((dimension) => `, g.b_${dimension}`).join('');
  const readable = spec.revenue === null ? null : scopeCondition(spec.revenue, spec.organizationId, 'g.user_id', 'g.project_id');
  const rates = query.withRates ? sql.raw(RATE_JOINS('g.rate_at', 'g.user_id')) : sql``;
  const rateColumns = sql.raw(query.withRates ? `, ${RATE_COLUMNS}` : '');
  return sql<GroupRow>`select g.user_id, g.project_id, pm.id as member_id${sql.raw(bucketColumns)},
      g.entries, g.time, g.billable_time, g.billable_entries${rateColumns},
      ${readable === null ? sql`1` : sql`case when ${readable} then 1 else 0 end`} as revenue_readable
    from (${inner}) g
    join users u on u.id = g.user_id
    left join projects p on p.id = g.project_id
    left join project_members pm on pm.project_id = g.project_id and pm.user_id = g.user_id
    ${rates}
    where ${pairConditions(spec)}`;
}

export async function summaryGroups(db: Db, spec: SelectionSpec, query: SummaryQuery): Promise<SummaryGroup[]> {
  const { rows } = await summaryStatement(dialectOf(db), spec, query).execute(db);
  return rows.map((row) => toGroup(row, query.timeDimensions));
}

interface GroupRow {
  user_id: string;
  project_id: string | null;
  member_id: string | null;
  b_day?: string;
  b_week?: string;
  b_month?: string;
  entries: number | string;
  time: number | string;
  billable_time: number | string;
  billable_entries: number | string;
  revenue_rate_id?: string | null;
  revenue_currency?: string | null;
  revenue_value?: number | string | null;
  cost_rate_id?: string | null;
  cost_currency?: string | null;
  cost_value?: number | string | null;
  revenue_readable: number | string;
}

/** A rate of a row: PostgreSQL answers sums and bigints as text, both stores a double as a number. */
const rateOf = (id: string | null | undefined, currency: string | null | undefined, value: number | string | null | undefined) =>
  id == null ? null : { currency: currency!, value: Number(value) };

function toGroup(row: GroupRow, timeDimensions: TimeDimension[]): SummaryGroup {
  const buckets: SummaryGroup['buckets'] = {};
  for (const dimension of timeDimensions) {
    const key = row[`b_${dimension}`]!;
    buckets[dimension] = dimension === 'week' ? weekKeyOfMonday(key) : key;
  }
  return {
    userId: row.user_id,
    projectId: row.project_id,
    memberId: row.member_id,
    buckets,
    entries: Number(row.entries),
    billableEntries: Number(row.billable_entries),
    time: Number(row.time),
    billableTime: Number(row.billable_time),
    revenueRate: rateOf(row.revenue_rate_id, row.revenue_currency, row.revenue_value),
    costRate: rateOf(row.cost_rate_id, row.cost_currency, row.cost_value),
    revenueReadable: Number(row.revenue_readable) === 1,
  };
}

/** One entry of a report, with what the detailed report shows of it. */
export interface ReportEntry {
  id: string;
  name: string;
  userId: string;
  projectId: string | null;
  /** The entry's user's membership in its project, if any. */
  memberId: string | null;
  billable: boolean;
  startedAt: string;
  endedAt: string;
  /** Whole seconds, milliseconds dropped. */
  duration: number;
  /** `duration` rounded by the organization's rounding (equal to it when rounding is off). */
  roundedDuration: number;
  /** The member's revenue rate in force at startedAt (null: none, or one the caller may not read). */
  revenueRate: { id: string; currency: string; value: number } | null;
  /** Whether the caller may read this entry's revenue at all. */
  revenueReadable: boolean;
  /** The user's cost rate in force at startedAt (null: none). */
  costRate: { id: string; currency: string; value: number } | null;
}

/** Where a page of entries starts: after this entry in (startedAt, id) order. */
export interface EntryKey {
  startedAt: string;
  id: string;
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
  return sql<EntryRow>`select a.id, a.name, a.user_id, a.project_id, a.billable, a.started_at, a.ended_at,
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
 * (null: none), and the revenue and cost rates of the period by member and by user. A long export
 * reads its pieces with one, so only a piece bringing a new member or user looks anything up.
 */
export interface EntryLookups {
  organizationId: string;
  period: ReportPeriod;
  archived: ArchivedSets;
  /** By project, then user. */
  members: Map<string, Map<string, string | null>>;
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
  return { organizationId, period: spec.period, archived: { projects, users, memberships }, members: new Map(), revenueRates: new Map(), costRates: new Map() };
}

const idsOf = async (statement: RawBuilder<unknown>, db: Db): Promise<string[]> =>
  ((await statement.execute(db)).rows as Array<{ id: string }>).map((row) => row.id);

/** Reads into the lookups what these entries need and they do not hold yet. */
async function lookUp(db: Db, lookups: EntryLookups, rows: ReadonlyArray<Pick<EntryRow, 'project_id' | 'user_id'>>): Promise<void> {
  const pairs = new Map<string, [string, string]>();
  const users = new Set<string>();
  for (const row of rows) {
    if (!lookups.costRates.has(row.user_id)) users.add(row.user_id);
    if (row.project_id !== null && lookups.members.get(row.project_id)?.has(row.user_id) !== true) {
      pairs.set(`${row.project_id} ${row.user_id}`, [row.project_id, row.user_id]);
    }
  }
  const newMembers = await membershipsOf(db, lookups, pairs);
  await ratePeriods(db, 'revenue_rates', 'member_id', newMembers, lookups.period, lookups.revenueRates);
  await ratePeriods(db, 'cost_rates', 'user_id', [...users], lookups.period, lookups.costRates);
}

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

interface EntryRow extends Pick<GroupRow, 'user_id' | 'project_id' | 'revenue_readable'> {
  id: string;
  name: string;
  billable: boolean | number;
  started_at: string;
  ended_at: string;
}
