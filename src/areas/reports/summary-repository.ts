import { sql, type RawBuilder } from 'kysely';
import { dialectOf, type Db, type Dialect } from '../../db/database.js';
import { readBesideRequests, type ReadStatement } from '../../db/long-reads.js';
import { readableRows } from '../../db/record-scopes.js';
import { weekKeyOfMonday, type TimeDimension, type ZoneOffsets } from './engine/buckets.js';
import type { ReportPeriod } from './engine/period.js';
import type { SummaryGroup } from './engine/selection.js';
import type { SummaryPlan } from './engine/summary.js';
import { entryConditions, pairConditions, roundedSecondsSql, scopeCondition, secondsSql, type SelectionSpec } from './entries-repository.js';

/*
 * The SQL of a summary, on either store: one statement that groups the selection's entries
 * (entries-repository.ts) by user, project, task and tag when asked, time buckets and rate period,
 * and joins the groups to their rates. Every rule here is in docs/rules.md §6 Reports.
 */

/**
 * The activities a summary reads (alias `a`): for an Administrator, the workspace's range of
 * activities_organization_started; for a User, one branch per scope that reaches them (their own: the
 * range of activities_user_listing; the projects they administer: each project's range of
 * activities_project_started), each leaving out the rows of the branches before it, so no entry
 * counts twice and no branch reads the whole workspace's period.
 */
function summarySource(dialect: Dialect, spec: SelectionSpec, extraColumns: readonly string[]): RawBuilder<unknown> {
  const { entries, organizationId } = spec;
  if (entries.all) return sql`activities a where ${entryConditions(dialect, spec)}`;
  const reach = (scope: (typeof entries.scopes)[number]) =>
    readableRows({ all: false, userId: entries.userId, scopes: [scope] }, { organizationId, userColumn: 'a.user_id', projectColumn: 'a.project_id' });
  const columns = sql.raw(['a.user_id', 'a.project_id', ...extraColumns, 'a.billable', 'a.started_at', 'a.ended_at'].join(', '));
  const branches = entries.scopes.map((scope, index) => {
    const earlier = entries.scopes.slice(0, index).map((before) => sql`not ${reach(before)}`);
    const slice = sql.join([reach(scope), ...earlier], sql` and `);
    return sql`select ${columns} from activities a where ${entryConditions(dialect, spec, slice)}`;
  });
  if (branches.length === 0) return sql`activities a where 1 = 0`;
  return sql`(${sql.join(branches, sql` union all `)}) a`;
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
async function rateChangesIn(db: Db, read: ReadStatement, organizationId: string, period: ReportPeriod): Promise<string[]> {
  const inPeriod = (table: 'revenue_rates' | 'cost_rates', column: 'from_at' | 'to_at') =>
    sql`select ${sql.ref(column)} as at from ${sql.table(table)} where organization_id = ${organizationId} and ${sql.ref(column)} > ${period.start} and ${sql.ref(column)} < ${period.end}`;
  const rows = await read<{ at: string }>(
    sql`${inPeriod('revenue_rates', 'from_at')} union ${inPeriod('revenue_rates', 'to_at')} union ${inPeriod('cost_rates', 'from_at')} union ${inPeriod('cost_rates', 'to_at')}`.compile(db),
  );
  return rows.map((row) => row.at).sort();
}

/** The rate columns of an entry or group, in force at the instant of `at` (the revenue rate of its membership, the cost rate of its user). */
const RATE_JOINS = (at: string, user: string) =>
  `left join revenue_rates rr on rr.member_id = pm.id and rr.from_at <= ${at} and (rr.to_at is null or rr.to_at > ${at})` +
  ` left join cost_rates cr on cr.user_id = ${user} and cr.from_at <= ${at} and (cr.to_at is null or cr.to_at > ${at})`;

const RATE_COLUMNS =
  'rr.id as revenue_rate_id, rr.currency as revenue_currency, rr.value as revenue_value, ' +
  'cr.id as cost_rate_id, cr.currency as cost_currency, cr.value as cost_value';

/** What the statement groups by and looks up, from the summary's plan (engine/summary.ts). */
export type SummaryQuery = Pick<SummaryPlan, 'dimensions' | 'timeDimensions' | 'zone' | 'withRates'>;

/** The instants where some rate changes, from rateChangesIn (none without rates). */
type RateChanges = { rateChanges: string[] };

/** The sums of a group, and (by tag) the same counting each entry in one of its tags only. */
const SUMS = ['entries', 'time', 'billable_time', 'billable_entries'] as const;

/**
 * Group keys in byte order on PostgreSQL, for groupings by task or tag. Its planner cannot tell how
 * few such groups a period has (it takes the product of the columns' distinct values), so it sorts
 * the entries to group them; under the database's collation (anything but "C") each comparison is a
 * full collation of two ids, with abbreviated keys off, several times the rest of the statement.
 * Compared byte by byte the sort takes its abbreviated keys, and groups are the same: ids and
 * buckets are equal exactly when their bytes are. The groups' keys go back to the database's
 * collation before they are joined, so the joins keep their indexes.
 */
interface GroupKeys {
  /** `expression as name`, for the select list of the query that groups. */
  select(expression: string, name: string): string;
  /** The grouped query, its keys back in the database's collation (names: its keys, then its sums). */
  restored(groups: RawBuilder<unknown>, keys: readonly string[], sums: readonly string[]): RawBuilder<unknown>;
}

function groupKeys(dialect: Dialect, byteOrder: boolean): GroupKeys {
  if (dialect !== 'postgres' || !byteOrder) return { select: (expression, name) => (expression === `a.${name}` ? expression : `${expression} as ${name}`), restored: (groups) => groups };
  return {
    select: (expression, name) => `${expression} collate "C" as ${name}`,
    restored: (groups, keys, sums) =>
      sql`select ${sql.raw([...keys.map((key) => `k.${key} collate "default" as ${key}`), ...sums.map((sum) => `k.${sum}`)].join(', '))} from (${groups}) k`,
  };
}

/**
 * By tag, the groups of one tag set (the activities' `tag_ids`, which hold the same tags as
 * activity_tags, written with them) made groups of one tag each: each group of the inner query is
 * repeated for each of its tags (once, with a null tag, when it has none), and summed again by tag.
 * The repetition of a group's first tag (or its null tag) also sums into the `once_` columns: there
 * every entry counts exactly once, which rows above the tag dimension and the totals add up.
 *
 * On PostgreSQL the tags are unnested from an array: the planner expects 10 elements of an array it
 * cannot see, against 100 rows of any set-returning function, and with that the plan of a month
 * stays under the cost at which PostgreSQL compiles it (jit_above_cost), which takes longer than
 * running it.
 */
function byTagStatement(dialect: Dialect, inner: RawBuilder<unknown>, keys: readonly string[], order: GroupKeys): RawBuilder<unknown> {
  const tags = `case when g.tag_ids = '[]' then '[null]' else g.tag_ids end`;
  const [each, first] =
    dialect === 'postgres'
      ? [`cross join lateral unnest(array(select jsonb_array_elements_text((${tags})::jsonb))) with ordinality as t(value, key)`, 't.key = 1']
      : [`cross join json_each(${tags}) t`, 't.key = 0'];
  const grouped = keys.map((key) => (key === 'tag_ids' ? order.select('t.value', 'tag_id') : `g.${key}`));
  const sums = SUMS.flatMap((sum) => [`sum(g.${sum}) as ${sum}`, `sum(case when ${first} then g.${sum} else 0 end) as once_${sum}`]);
  return sql`select ${sql.raw([...grouped, ...sums].join(', '))} from (${inner}) g ${sql.raw(each)}
    group by ${sql.raw(grouped.map((_, index) => String(index + 1)).join(', '))}`;
}

/**
 * The summary's aggregate: one SQL statement. The inner query reads the period's range of activities
 * (activities_organization_started, or a User's own index ranges) and groups it by user, project, the
 * task and the tag set when grouped by them, the asked time buckets and the rate period (the stretch
 * between two rate changes, in which every entry of one member has the same rates), rounding each
 * entry before summing; by tag, those groups are summed again by each tag (byTagStatement). The outer
 * query joins those few groups, not the entries, to users, projects (and their clients), memberships
 * and the rates in force.
 */
export function summaryStatement(dialect: Dialect, spec: SelectionSpec, query: SummaryQuery & RateChanges): RawBuilder<GroupRow> {
  const rounded = roundedSecondsSql(secondsSql(dialect), spec.rounding);
  const byTask = query.dimensions.includes('task');
  const byTag = query.dimensions.includes('tag');
  const records = [...(byTask ? ['task_id'] : []), ...(byTag ? ['tag_ids'] : [])];
  const order = groupKeys(dialect, records.length > 0);
  const keys: Array<[string, string]> = [
    ['a.user_id', 'user_id'],
    ['a.project_id', 'project_id'],
    ...records.map((column): [string, string] => [`a.${column}`, column]),
    ...query.timeDimensions.map((dimension): [string, string] => [bucketSql(dialect, dimension, query.zone), `b_${dimension}`]),
  ];
  if (query.withRates) keys.push([intervalCase('a.started_at', query.rateChanges, [spec.period.start, ...query.rateChanges].map(instantLiteral)), 'rate_at']);
  const grouped = keys.map(([expression, name]) => order.select(expression, name));
  const inner = sql`select ${sql.raw(grouped.join(', '))}, count(*) as entries, sum(${sql.raw(rounded)}) as time,
    sum(case when a.billable then ${sql.raw(rounded)} else 0 end) as billable_time, sum(case when a.billable then 1 else 0 end) as billable_entries
    from ${summarySource(dialect, spec, records.map((column) => `a.${column}`))}
    group by ${sql.raw(grouped.map((_, index) => String(index + 1)).join(', '))}`;
  const names = keys.map(([, name]) => name);
  const groups = byTag
    ? order.restored(byTagStatement(dialect, inner, names, order), names.map((name) => (name === 'tag_ids' ? 'tag_id' : name)), SUMS.flatMap((sum) => [sum, `once_${sum}`]))
    : order.restored(inner, names, SUMS);
  const recordColumns = [
    ...(query.dimensions.includes('client') ? ['p.client_id'] : []),
    ...(byTask ? ['g.task_id'] : []),
    ...(byTag ? ['g.tag_id', ...SUMS.map((sum) => `g.once_${sum}`)] : []),
  ];
  const groupColumns = [...recordColumns, ...query.timeDimensions.map((dimension) => `g.b_${dimension}`)].map((column) => `, ${column}`).join('');
  const readable = spec.revenue === null ? null : scopeCondition(spec.revenue, spec.organizationId, 'g.user_id', 'g.project_id');
  const rates = query.withRates ? sql.raw(RATE_JOINS('g.rate_at', 'g.user_id')) : sql``;
  const rateColumns = sql.raw(query.withRates ? `, ${RATE_COLUMNS}` : '');
  return sql<GroupRow>`select g.user_id, g.project_id, pm.id as member_id${sql.raw(groupColumns)},
      g.entries, g.time, g.billable_time, g.billable_entries${rateColumns},
      ${readable === null ? sql`1` : sql`case when ${readable} then 1 else 0 end`} as revenue_readable
    from (${groups}) g
    join users u on u.id = g.user_id
    left join projects p on p.id = g.project_id
    left join project_members pm on pm.project_id = g.project_id and pm.user_id = g.user_id
    ${rates}
    where ${pairConditions(spec)}`;
}

/**
 * The groups of a summary's entries: the period's rate changes read first (when rates are looked up),
 * then the aggregate, both in one snapshot beside the other requests (on a SQLite file, the reader
 * thread's: docs/rules.md §6 Reports, "Speed").
 */
export async function summaryGroups(db: Db, spec: SelectionSpec, query: SummaryQuery): Promise<SummaryGroup[]> {
  const rows = await readBesideRequests(db, async (read) => {
    const rateChanges = query.withRates ? await rateChangesIn(db, read, spec.organizationId, spec.period) : [];
    return read<GroupRow>(summaryStatement(dialectOf(db), spec, { ...query, rateChanges }).compile(db));
  });
  return rows.map((row) => toGroup(row, query));
}

interface GroupRow {
  user_id: string;
  project_id: string | null;
  member_id: string | null;
  client_id?: string | null;
  task_id?: string | null;
  tag_id?: string | null;
  once_entries?: number | string;
  once_time?: number | string;
  once_billable_time?: number | string;
  once_billable_entries?: number | string;
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

function toGroup(row: GroupRow, { dimensions, timeDimensions }: SummaryQuery): SummaryGroup {
  const buckets: SummaryGroup['buckets'] = {};
  for (const dimension of timeDimensions) {
    const key = row[`b_${dimension}`]!;
    buckets[dimension] = dimension === 'week' ? weekKeyOfMonday(key) : key;
  }
  const group: SummaryGroup = {
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
  if (dimensions.includes('client')) group.clientId = row.client_id ?? null;
  if (dimensions.includes('task')) group.taskId = row.task_id ?? null;
  if (dimensions.includes('tag')) {
    group.tagId = row.tag_id ?? null;
    group.once = {
      entries: Number(row.once_entries),
      billableEntries: Number(row.once_billable_entries),
      time: Number(row.once_time),
      billableTime: Number(row.once_billable_time),
    };
  }
  return group;
}
