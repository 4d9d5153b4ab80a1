import { CompiledQuery } from 'kysely';
import type { Dialect } from '../../db/database.js';
import { memberProjectsText, membershipConditionsText } from '../../db/record-scopes.js';
import { ACTIVITY_LENGTH_FLOOR_SECONDS, SQLITE_ACTIVITY_ENTRY } from '../../db/frozen/activity-listing.js';
import { renderedEntry } from '../../db/rendered-entries.js';
import { ACTIVITY_FIELDS } from './columns.js';
import type { ListKey } from './listing.js';

/*
 * The one statement of GET /activities, in both dialects: built as text with its parameters, its text
 * kept once per shape. The reads that run it are in listing-repository.ts.
 */

/** GET /activities: the workspace, the period (canonical UTC instants) and the optional filters. */
export interface ActivityFilter {
  organizationId: string;
  /** Keeps activities ending after it; running timers always match. */
  from?: string;
  /** Keeps activities starting before it. */
  to?: string;
  userId?: string;
  /** Each list keeps the activities matching any of its values (never empty when given). */
  projectIds?: readonly string[];
  taskIds?: readonly string[];
  /** The clients of the activities' projects. */
  clientIds?: readonly string[];
  /** Activities carrying any of these tags. */
  tagIds?: readonly string[];
}

/**
 * The list filters of a listing: the column they test, and the rows of this workspace that hold their
 * values; `byId` when those rows are looked up by their id, so one value names at most one row.
 */
const LIST_FILTERS = [
  { key: 'projectIds', column: 'project_id', byId: true, of: (match: string, org: string) => `select projects.id from projects where projects.id ${match} and projects.organization_id = ${org}` },
  { key: 'taskIds', column: 'task_id', byId: true, of: (match: string, org: string) => `select tasks.id from tasks where tasks.id ${match} and tasks.organization_id = ${org}` },
  {
    key: 'clientIds',
    column: 'project_id',
    byId: false,
    of: (match: string, org: string) => `select projects.id from projects where projects.client_id ${match} and projects.organization_id = ${org}`,
  },
  {
    key: 'tagIds',
    column: 'id',
    byId: false,
    of: (match: string, org: string) =>
      `select activity_tags.activity_id from activity_tags where activity_tags.tag_id ${match} and activity_tags.organization_id = ${org}`,
  },
] as const;

/** Whose activities the reader may see: all of the workspace (admin), or their own plus those of projects they administer. */
export type ActivityReader = { all: true } | { all: false; userId: string };

/** Builds one statement's SQL text and its parameters, in the placeholder style of the store. */
class Statement {
  readonly parameters: unknown[] = [];
  constructor(readonly dialect: Dialect) {}

  /** A placeholder bound to the value (SQLite binds `?` by position: make them in text order). */
  p(value: unknown): string {
    this.parameters.push(value);
    return this.dialect === 'postgres' ? `$${this.parameters.length}` : '?';
  }

  /** A match of any of the values, bound as one parameter so that the text is the same for any number of them. */
  anyOf(values: readonly string[]): string {
    if (values.length === 1) return `= ${this.p(values[0])}`;
    return this.dialect === 'postgres' ? `= any(${this.p(values)}::text[])` : `in (select value from json_each(${this.p(JSON.stringify(values))}))`;
  }

  /**
   * The statement, its text taken from earlier calls of the same shape when there were any: the very
   * same string each time, so neither V8 nor the statement cache hashes a long text again.
   */
  compile(text: string, shape: string): CompiledQuery {
    let known = Statement.texts.get(shape);
    if (known === undefined) Statement.texts.set(shape, (known = text));
    return CompiledQuery.raw(known, this.parameters);
  }

  private static readonly texts = new Map<string, string>();
}

/** PostgreSQL's rendering of one listed activity: the same bytes as SQLITE_ACTIVITY_ENTRY. */
const POSTGRES_ACTIVITY_ENTRY = renderedEntry('postgres', 'id', ACTIVITY_FIELDS);

/*
 * SQLite's is the text the latest listing migration froze in the index activities_user_listing, which
 * a query matches only by that very text; the schema must still render to it, or the listing would
 * drift from the schema (`npm run db:listing` writes the migration that rebuilds the index:
 * docs/architecture.md "Add a field").
 */
if (renderedEntry('sqlite', 'id', ACTIVITY_FIELDS) !== SQLITE_ACTIVITY_ENTRY) {
  throw new Error('The Activity schema no longer renders to the SQLite entry of the listing index (src/db/frozen/activity-listing.ts): run npm run db:listing');
}

/** Before this, `from` bounds no index range (the arithmetic of fromBound stays within years 0001–9999). */
const EARLIEST_BOUNDED_FROM = '0001-01-03T00:00:00.000Z';

/** Whose activities a `from` bound is computed over: one user's, or the whole workspace's. */
type BoundScope = { userId: string } | { organizationId: string };

/**
 * The earliest startedAt an activity ending after `from` (or still running) can have in the scope:
 * `from` less a day, less the scope's longest activity when that is longer (activity_length_bounds),
 * and no later than the start of the scope's oldest running timer. Read in the listing's own
 * statement, so the bound and the rows come from one snapshot.
 */
function fromBound(q: Statement, from: string, scope: BoundScope): string {
  const floor = new Date(Date.parse(from) - ACTIVITY_LENGTH_FLOOR_SECONDS * 1000).toISOString();
  const [column, value] = 'userId' in scope ? ['user_id', scope.userId] : ['organization_id', scope.organizationId];
  if (q.dialect === 'postgres') {
    // Past year 1 (and so before PostgreSQL's earliest timestamp) the bound is '': no bound.
    const at = `${q.p(from)}::timestamptz`;
    return (
      `(select min(b) from (select ${q.p(floor)}::text as b` +
      ` union all select min(case when longest_seconds + 1 >= extract(epoch from (${at} - timestamptz '0001-01-01T00:00:00Z')) then ''` +
      ` else to_char((${at} - make_interval(secs => longest_seconds + 1)) at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') end)` +
      ` from activity_length_bounds where ${column} = ${q.p(value)}` +
      ` union all select min(started_at) from activities where ${column} = ${q.p(value)} and ended_at is null) bounds)`
    );
  }
  const head = `(select min(b) from (select ${q.p(floor)} as b`;
  const longest =
    ` union all select min(coalesce(strftime('%Y-%m-%dT%H:%M:%fZ', ${q.p(from)}, '-' || (longest_seconds + 1) || ' seconds'), ''))` +
    ` from activity_length_bounds where ${column} = ${q.p(value)}`;
  const running = ` union all select min(started_at) from activities where ${column} = ${q.p(value)} and ended_at is null))`;
  return head + longest + running;
}

/**
 * The statement of GET /activities: the visible activities of a period, ordered by started_at then
 * id, each rendered by the database as its JSON map entry (`"<id>":{…}`, the same bytes as the
 * service's serializer makes; SQLite reads it ready-made from the index activities_user_listing for
 * a user's activities) and joined in one row: no row object nor serializer runs per activity.
 *
 * Which index serves which branch; in each, an equality picks the slice and `from`/`to` bound its
 * started_at range, read in started_at order:
 * - `userId`, and a User's own activities: activities_user_listing (user_id, started_at, id, …);
 * - an administrator's whole workspace: activities_organization_started (organization_id, started_at, id);
 * - `projectId`: activities_project_started (project_id, started_at, id);
 * - `taskId`, `clientId` and `tagId` narrow the rows of whichever slice the others pick;
 * - the activities of the projects a User administers: project_members_user (user_id) finds the
 *   projects, then activities_project_started each one's activities.
 * The workspace is enforced on every branch: directly on activities.organization_id for the whole
 * workspace, otherwise through the scoping row (the user, the project or the membership must be of
 * this workspace). Comparing activities.organization_id there too would tempt both planners into the
 * workspace-wide index instead of the user's or project's, which is the narrower one.
 * `from` (ended after it, or still running) is checked on the rows of a range that starts at
 * fromBound (migration 0005), so the rows read are about the rows answered, whatever the history.
 * `administers: false` leaves out the branch of administered projects (the reader administers none).
 */
export function activityListStatement(
  dialect: Dialect,
  filter: ActivityFilter,
  reader: ActivityReader,
  options: { administers?: boolean; after?: ListKey; limit?: number } = {},
): CompiledQuery {
  const q = new Statement(dialect);
  const { organizationId } = filter;
  const entry = dialect === 'postgres' ? POSTGRES_ACTIVITY_ENTRY : SQLITE_ACTIVITY_ENTRY;

  /** One branch: the rows of a slice (`where`) in the period, with the `from` bound of its scope. */
  const branch = (where: string | null, scope: BoundScope) => {
    const conditions = where === null ? [] : [where];
    if (filter.userId !== undefined && !('userId' in scope && scope.userId === filter.userId)) {
      conditions.push(`user_id = (select users.id from users where users.id = ${q.p(filter.userId)} and users.organization_id = ${q.p(organizationId)})`);
    }
    for (const { key, column, byId, of } of LIST_FILTERS) {
      const values = filter[key];
      if (values === undefined) continue;
      // One id: an equality on the slice, which reads the project's index in order; otherwise any of the rows.
      const relation = byId && values.length === 1 ? '=' : 'in';
      conditions.push(`${column} ${relation} (${of(q.anyOf(values), q.p(organizationId))})`);
    }
    if (filter.to !== undefined) conditions.push(`started_at < ${q.p(filter.to)}`);
    if (filter.from !== undefined && filter.from >= EARLIEST_BOUNDED_FROM) {
      conditions.push(`started_at >= ${fromBound(q, filter.from, scope)}`);
    }
    if (filter.from !== undefined) conditions.push(`(ended_at is null or ended_at > ${q.p(filter.from)})`);
    if (options.after !== undefined) {
      // PostgreSQL takes a row comparison as a filter, not as a bound of the index range: the plain
      // bound on started_at makes it one.
      if (dialect === 'postgres') conditions.push(`started_at >= ${q.p(options.after.startedAt)}`);
      conditions.push(`(started_at, id) > (${q.p(options.after.startedAt)}, ${q.p(options.after.id)})`);
    }
    return `from activities where ${conditions.join(' and ')}`;
  };
  // The limit of the statement (a page a client asked for binds its size, so the texts stay one per shape).
  const limitOf = () => (options.limit === undefined ? String(LIST_PIECE) : q.p(options.limit));
  const workspace = { organizationId };

  const branches: string[] = [];
  let administeredRows: string | undefined;
  if (reader.all) {
    if (filter.userId !== undefined) {
      const user = `(select users.id from users where users.id = ${q.p(filter.userId)} and users.organization_id = ${q.p(organizationId)})`;
      branches.push(branch(`user_id = ${user}`, { userId: filter.userId }));
    } else if (filter.projectIds !== undefined) {
      branches.push(branch(null, workspace));
    } else {
      branches.push(branch(`organization_id = ${q.p(organizationId)}`, workspace));
    }
  } else {
    // A User: their own activities (the caller is a user of this workspace), plus others' activities on
    // the projects they are a project admin of (leaving out their own, so UNION ALL repeats nothing).
    const wantsOwn = filter.userId === undefined || filter.userId === reader.userId;
    const wantsOthers = filter.userId !== reader.userId && options.administers !== false;
    // The projects the reader administers (db/record-scopes.ts), their conditions bound in text order.
    const adminMemberships = { organizationId, userId: reader.userId, administered: true };
    const bind = (value: unknown) => q.p(value);
    if (wantsOwn) branches.push(branch(`user_id = ${q.p(reader.userId)}`, { userId: reader.userId }));
    if (wantsOthers && dialect === 'postgres') {
      // PostgreSQL: each administered project's first entries, read in order from activities_project_started
      // (a lateral range per project, at most a piece each), then merged; an IN list over the projects
      // made it hash-join a scan of the whole table and sort it, for every piece.
      const others = branch(`project_id = project_members.project_id and user_id != ${q.p(reader.userId)}`, workspace);
      administeredRows =
        `select administered.entry, administered.started_at, administered.id from project_members cross join lateral` +
        ` (select ${entry} as entry, started_at, id ${others} order by started_at, id limit ${limitOf()}) as administered` +
        ` where ${membershipConditionsText(adminMemberships, bind)}`;
    } else if (wantsOthers) {
      const others = `project_id in ${memberProjectsText(adminMemberships, bind)} and user_id != ${q.p(reader.userId)}`;
      // SQLite, its statistics gathered, chose a scan of the table for this branch once most rows were on
      // the administered projects: INDEXED BY keeps it the range of each project.
      branches.push(branch(others, workspace).replace('from activities where', 'from activities indexed by activities_project_started where'));
    }
  }
  // Everything the text depends on (the values are parameters).
  const shape = [
    dialect,
    reader.all,
    filter.userId === undefined ? 0 : !reader.all && filter.userId === reader.userId ? 1 : 2,
    ...LIST_FILTERS.map(({ key }) => (filter[key] === undefined ? 0 : filter[key].length === 1 ? 1 : 2)),
    filter.to !== undefined,
    filter.from === undefined ? 0 : filter.from >= EARLIEST_BOUNDED_FROM ? 1 : 2,
    options.administers !== false,
    options.after !== undefined,
    options.limit !== undefined,
  ].join();
  if (branches.length === 0 && administeredRows === undefined) return q.compile('select null as entries, 0 as n', shape);
  // At most LIST_PIECE entries, in order. The limit is written into the text: bound as a parameter, it
  // doubles SQLite's time for a short answer. SQLite reads a single branch's entries alone from the
  // covering index; a union needs the keys to merge in order. On PostgreSQL each branch is ordered and
  // limited on its own (an index range read in order), so the merge sorts at most a piece per branch.
  let rows: string;
  if (dialect === 'postgres') {
    const parts = branches.map((from) => `(select ${entry} as entry, started_at, id ${from} order by started_at, id limit ${limitOf()})`);
    if (administeredRows !== undefined) parts.push(`(${administeredRows})`);
    rows = `select entry, started_at, id from (${parts.join(' union all ')}) as branches order by started_at, id limit ${limitOf()}`;
  } else {
    const keys = branches.length > 1 ? ', started_at, id' : '';
    rows = `${branches.map((from) => `select ${entry} as entry${keys} ${from}`).join(' union all ')} order by started_at, id limit ${limitOf()}`;
  }
  const counted = `count(*) as n from (${rows}) as listed`;
  if (dialect === 'postgres') return q.compile(`select string_agg(entry, ',' order by started_at, id) as entries, ${counted}`, shape);
  // SQLite aggregates the rows of an ordered subquery in that order (it never flattens such a subquery
  // into an aggregate). The entries leave as one blob: the bytes go to the socket as they are.
  return q.compile(`select cast(group_concat(entry, ',') as blob) as entries, ${counted}`, shape);
}

/** Entries read by one statement: a longer answer is read in pieces of this many (about 600 kB each; larger
 * pieces cost PostgreSQL's client a copy of the growing row per network chunk). */
export const LIST_PIECE = 2_000;
