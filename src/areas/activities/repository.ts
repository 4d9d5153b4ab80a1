import { CompiledQuery, type Selectable, type Updateable } from 'kysely';
import { dialectOf, startLongRead, snapshotReaderOf, type Db, type Dialect } from '../../db/database.js';
import type { SnapshotReader } from '../../db/snapshot-reader.js';
import { fixedStatement } from '../../db/fixed-statement.js';
import { administersSomeProject, memberProjectsText, membershipConditionsText } from '../../db/record-scopes.js';
import { ACTIVITY_LENGTH_FLOOR_SECONDS, SQLITE_ACTIVITY_ENTRY } from '../../db/frozen/activity-listing.js';
import { renderedEntry, renderedFieldsOf } from '../../db/rendered-entries.js';
import type { ActivitiesTable } from '../../db/tables/tracking.js';
import { fromDbBool, toDbBool } from '../../db/values.js';
import { nowIso } from '../../lib/time.js';
import { giveWay, timed, type PieceTime } from '../../db/giving-way.js';
import type { LaterPieces } from '../../lib/later-pieces.js';
import { andThen, type MaybePromise } from '../../lib/maybe-promise.js';
import { ACTIVITY_COLUMNS, lastKeyOf, type ListKey } from './listing.js';
import { Activity } from './schemas.js';

type ActivityRow = Selectable<ActivitiesTable>;

/** The fields an update of an activity changes: only those present. */
export type ActivityChanges = Partial<Pick<Activity, 'name' | 'billable' | 'startedAt' | 'endedAt' | 'projectId'>>;

/** GET /activities: the workspace, the period (canonical UTC instants) and the optional filters. */
export interface ActivityFilter {
  organizationId: string;
  /** Keeps activities ending after it; running timers always match. */
  from?: string;
  /** Keeps activities starting before it. */
  to?: string;
  userId?: string;
  projectId?: string;
}

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

/** A listed activity: the Activity schema's fields (as toActivity maps them), each read from its column. */
const ACTIVITY_FIELDS = renderedFieldsOf(Activity, ACTIVITY_COLUMNS);

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
    if (filter.projectId !== undefined) {
      conditions.push(
        `project_id = (select projects.id from projects where projects.id = ${q.p(filter.projectId)} and projects.organization_id = ${q.p(organizationId)})`,
      );
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
    } else if (filter.projectId !== undefined) {
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
    filter.projectId !== undefined,
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

/**
 * Pieces of GET /activities read from the store since the process started, and of those the ones a
 * long listing read after giving way to other requests (tests count them).
 */
export const listingCounters = { piecesRead: 0, piecesAfterGivingWay: 0 };

/** One piece of a listing: its entries joined by commas (bytes from SQLite, text from PostgreSQL) and how many. */
interface Piece {
  entries: Buffer | string | null;
  n: number;
}

async function listPiece(
  db: Db,
  dialect: Dialect,
  filter: ActivityFilter,
  reader: ActivityReader,
  options: { administers: boolean; after?: ListKey; limit?: number },
): Promise<Piece> {
  listingCounters.piecesRead++;
  const result = await db.executeQuery<Piece>(activityListStatement(dialect, filter, reader, options));
  return pieceOf(result.rows);
}

const pieceOf = (rows: Piece[]): Piece => ({ entries: rows[0].entries, n: Number(rows[0].n) });

/**
 * With SQLite's reader thread, the most entries a listing reads on the event loop: a shorter answer
 * (a week, a month) is read there at once; a longer one is read again on the thread, in one snapshot.
 */
const ON_EVENT_LOOP = 200;

/**
 * GET /activities: the answer's entries, rendered by the database (see activityListStatement), in
 * pieces to be joined by commas: bytes from SQLite, text from PostgreSQL; none when there is none.
 * Most answers are one piece. A longer one is read again piece after piece in one snapshot (so no
 * activity is missed or repeated between pieces), so that neither store ever builds the whole answer
 * in one buffer, nor copies it again: as the client takes it (laterPieces) on PostgreSQL and on a
 * SQLite file; whole, inside one transaction, on a SQLite store in memory or inside a caller's
 * transaction. `after` starts the listing after that key (a cursor without a limit: the rest of the listing).
 */
export async function listActivitiesJson(
  db: Db,
  filter: ActivityFilter,
  reader: ActivityReader,
  start: { after?: ListKey } = {},
): Promise<Array<Buffer | string> | LaterPieces> {
  const dialect = dialectOf(db);
  const options = { administers: await readerAdministers(db, filter, reader), after: start.after };
  const thread = snapshotReaderOf(db);
  const limit = thread ? ON_EVENT_LOOP : LIST_PIECE;
  const { value: first, time } = await timed(() => listPiece(db, dialect, filter, reader, thread ? { ...options, limit } : options));
  if (first.n < limit) return first.entries === null ? [] : [first.entries];
  const openSnapshot = thread
    ? () => threadSnapshot(thread, filter, reader, options)
    : dialect === 'postgres' && db.isTransaction === false
      ? () => postgresSnapshot(db, filter, reader, options)
      : undefined;
  if (openSnapshot) {
    // Before the snapshot opens, so that it is not held while the listing waits.
    await giveWayCounted(time);
    return laterPieces(await openSnapshot(), start.after);
  }
  const transaction = dialect === 'postgres' ? db.transaction().setIsolationLevel('repeatable read') : db.transaction();
  return transaction.execute(async (trx) => {
    const pieces: Array<Buffer | string> = [];
    let after: ListKey | undefined = start.after;
    for (;;) {
      const piece = await listPiece(trx, dialect, filter, reader, { ...options, after });
      if (piece.entries === null) return pieces;
      pieces.push(piece.entries);
      if (piece.n < LIST_PIECE) return pieces;
      after = lastKeyOf(piece.entries);
    }
  });
}

async function giveWayCounted(last: PieceTime): Promise<void> {
  if (await giveWay(last)) listingCounters.piecesAfterGivingWay++;
}

/** One snapshot a long listing is read in, piece after piece, until it is ended. */
interface ListingSnapshot {
  piece(after: ListKey | undefined): Promise<Piece>;
  end(completed: boolean): Promise<void>;
}

/** PostgreSQL: a REPEATABLE READ transaction on a connection of the long reads' pool (startLongRead). */
async function postgresSnapshot(db: Db, filter: ActivityFilter, reader: ActivityReader, options: { administers: boolean }): Promise<ListingSnapshot> {
  const trx = await startLongRead(db);
  return {
    piece: (after) => listPiece(trx, 'postgres', filter, reader, { ...options, after }),
    end: async (completed) => void (completed ? await trx.commit().execute() : await trx.rollback().execute()),
  };
}

/** A SQLite file: a read transaction on the reader thread (SnapshotReader), beside the event loop. */
async function threadSnapshot(
  thread: SnapshotReader,
  filter: ActivityFilter,
  reader: ActivityReader,
  options: { administers: boolean },
): Promise<ListingSnapshot> {
  const snapshot = await thread.snapshot();
  return {
    piece: async (after) => {
      listingCounters.piecesRead++;
      return pieceOf(await snapshot.rows<Piece>(activityListStatement('sqlite', filter, reader, { ...options, after })));
    },
    end: () => snapshot.end(),
  };
}

/**
 * A long listing read piece by piece as the client takes the answer, in one snapshot that stays open
 * until the last piece is read or the answer is abandoned (the stream closes the generator, which
 * ends the snapshot). A client that does not read thus holds one snapshot and about one piece, never
 * the whole answer; the listings at once are bounded per token and per workspace
 * (http/heavy-listings.ts) and a stalled answer is closed (http/json-answer.ts). While the process
 * serves other requests, each piece waits as long as the one before took (giveWay), so that a flood
 * of long listings does not take the database's time from them.
 */
async function laterPieces(snapshot: ListingSnapshot, start: ListKey | undefined): Promise<Array<Buffer | string> | LaterPieces> {
  let first: Piece;
  let firstTime: PieceTime;
  try {
    ({ value: first, time: firstTime } = await timed(() => snapshot.piece(start)));
  } catch (error) {
    await snapshot.end(false);
    throw error;
  }
  if (first.entries === null || first.n < LIST_PIECE) {
    await snapshot.end(true);
    return first.entries === null ? [] : [first.entries];
  }
  const firstEntries = first.entries;
  let ending: Promise<void> | undefined;
  const end = (completed: boolean) => (ending ??= snapshot.end(completed));
  let started = false;
  async function* rest(): AsyncGenerator<Buffer | string> {
    started = true;
    let ended = false;
    try {
      let after = lastKeyOf(firstEntries);
      let last = firstTime;
      for (;;) {
        await giveWayCounted(last);
        const { value: piece, time } = await timed(() => snapshot.piece(after));
        last = time;
        if (piece.entries === null) break;
        yield piece.entries;
        if (piece.n < LIST_PIECE) break;
        after = lastKeyOf(piece.entries);
      }
      ended = true;
      await end(true);
    } finally {
      if (!ended) await end(false);
    }
  }
  // Once started, the generator ends the snapshot itself (a closed stream returns it); one never started cannot.
  return { first: firstEntries, rest: rest(), close: () => (started ? Promise.resolve() : end(false)) };
}

/**
 * One page of GET /activities (`limit` entries at most, after `after`): one statement, one index
 * range. `last` is the key of its last entry when the page is full (more may follow), else undefined.
 */
export async function listActivitiesPage(
  db: Db,
  filter: ActivityFilter,
  reader: ActivityReader,
  page: { limit: number; after?: ListKey },
): Promise<{ entries: Array<Buffer | string>; last: ListKey | undefined }> {
  const administers = await readerAdministers(db, filter, reader);
  const piece = await listPiece(db, dialectOf(db), filter, reader, { administers, ...page });
  if (piece.entries === null) return { entries: [], last: undefined };
  return { entries: [piece.entries], last: piece.n < page.limit ? undefined : lastKeyOf(piece.entries) };
}

/** Most Users administer no project: their listing is then their own activities alone, one index range. */
async function readerAdministers(db: Db, filter: ActivityFilter, reader: ActivityReader): Promise<boolean> {
  return reader.all || filter.userId === reader.userId || administersSomeProject(db, filter.organizationId, reader.userId);
}

const FIND_ACTIVITY = fixedStatement<ActivityRow>('select * from activities where id = ? and organization_id = ?');
const FIND_RUNNING_TIMER = fixedStatement<ActivityRow>('select * from activities where user_id = ? and ended_at is null and organization_id = ?');
const INSERT_ACTIVITY = fixedStatement(
  'insert into activities (id, organization_id, user_id, project_id, name, billable, started_at, ended_at, created_at, updated_at)' +
    ' values (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)',
);

/** At once, without a promise, when the store answers at once (fixedStatement). */
export function findActivity(db: Db, organizationId: string, activityId: string): MaybePromise<Activity | undefined> {
  return andThen(FIND_ACTIVITY(db, [activityId, organizationId]), (rows) => rows[0] && toActivity(rows[0]));
}

const FIND_ACTIVITY_FOR_UPDATE = fixedStatement<ActivityRow>('select * from activities where id = ? and organization_id = ? for update');

/**
 * The activity, its row locked for the rest of the transaction: FOR UPDATE on PostgreSQL; a SQLite
 * transaction holds the file's write lock from its start (see lockRowForWrite), so a plain read.
 */
export async function findActivityForUpdate(db: Db, organizationId: string, activityId: string): Promise<Activity | undefined> {
  const statement = dialectOf(db) === 'postgres' ? FIND_ACTIVITY_FOR_UPDATE : FIND_ACTIVITY;
  const row = (await statement(db, [activityId, organizationId]))[0];
  return row && toActivity(row);
}

/** The user's running timer, if any (activities_one_running_timer: a partial unique index on user_id). */
export async function findRunningTimer(db: Db, organizationId: string, userId: string): Promise<Activity | undefined> {
  const row = (await FIND_RUNNING_TIMER(db, [userId, organizationId]))[0];
  return row && toActivity(row);
}

type Timed = Pick<ActivityRow, 'organization_id' | 'user_id' | 'started_at' | 'ended_at'>;

/**
 * Keeps activity_length_bounds: an activity that ends more than a day after it starts raises its
 * user's longest length, which GET /activities subtracts from `from` to bound the rows it reads
 * (activityListStatement). Every write that gives an activity an end or moves it calls this, in the
 * writer's transaction, so a listing never sees the activity without its bound. A deleted,
 * shortened or moved activity that was the longest lowers it again (forgetLength).
 */
async function noteLength(db: Db, row: Timed): Promise<void> {
  const seconds = lengthSeconds(row);
  if (!(seconds > ACTIVITY_LENGTH_FLOOR_SECONDS)) return;
  await db
    .insertInto('activity_length_bounds')
    .values({ user_id: row.user_id, organization_id: row.organization_id, longest_seconds: seconds })
    .onConflict((conflict) =>
      conflict
        .column('user_id')
        .doUpdateSet({ longest_seconds: (eb) => eb.ref('excluded.longest_seconds') })
        .where('activity_length_bounds.longest_seconds', '<', seconds),
    )
    .execute();
}

/** A closed activity's length in whole seconds, rounded up (0 for a running timer): the unit of activity_length_bounds. */
const lengthSeconds = (row: Pick<Timed, 'started_at' | 'ended_at'>): number =>
  row.ended_at === null ? 0 : Math.ceil((Date.parse(row.ended_at) - Date.parse(row.started_at)) / 1000);

/**
 * The same length as lengthSeconds, computed by the store over canonical instants (the milliseconds
 * taken from the text, so that both agree to the second).
 */
const LENGTH_SECONDS_SQL = {
  postgres: 'ceil(extract(epoch from (ended_at::timestamptz - started_at::timestamptz)))::bigint',
  sqlite:
    "((strftime('%s', ended_at) - strftime('%s', started_at)) * 1000" +
    ' + cast(substr(ended_at, 21, 3) as integer) - cast(substr(started_at, 21, 3) as integer) + 999) / 1000',
} as const;

const LONGEST_OF_USER = {
  postgres: `select max(${LENGTH_SECONDS_SQL.postgres}) as longest from activities where user_id = $1 and ended_at is not null`,
  sqlite: `select max(${LENGTH_SECONDS_SQL.sqlite}) as longest from activities where user_id = ? and ended_at is not null`,
} as const;

/**
 * Called with an activity's times before it was deleted or its times changed, in the writer's
 * transaction: when that activity was its user's longest (its length reaches the recorded bound),
 * the bound is computed again from the user's activities (read from activities_user_listing, which
 * holds both instants), and dropped when none is longer than a day. So the `from` bound of
 * GET /activities follows the data: one long activity, once gone, no longer widens the listings.
 */
async function forgetLength(db: Db, row: Timed): Promise<void> {
  const seconds = lengthSeconds(row);
  if (!(seconds > ACTIVITY_LENGTH_FLOOR_SECONDS)) return;
  const recorded = await db
    .selectFrom('activity_length_bounds')
    .select('longest_seconds')
    .where('user_id', '=', row.user_id)
    .executeTakeFirst();
  if (recorded === undefined || seconds < Number(recorded.longest_seconds)) return;
  const found = await db.executeQuery<{ longest: number | string | null }>(CompiledQuery.raw(LONGEST_OF_USER[dialectOf(db)], [row.user_id]));
  const longest = Number(found.rows[0]?.longest ?? 0);
  if (longest > ACTIVITY_LENGTH_FLOOR_SECONDS) {
    await db.updateTable('activity_length_bounds').set({ longest_seconds: longest }).where('user_id', '=', row.user_id).execute();
  } else {
    await db.deleteFrom('activity_length_bounds').where('user_id', '=', row.user_id).execute();
  }
}

export async function insertActivity(db: Db, organizationId: string, activity: Activity): Promise<void> {
  const now = nowIso();
  await INSERT_ACTIVITY(db, [
    activity.id,
    organizationId,
    activity.userId,
    activity.projectId,
    activity.name,
    toDbBool(activity.billable),
    activity.startedAt,
    activity.endedAt,
    now,
    now,
  ]);
  await noteLength(db, { organization_id: organizationId, user_id: activity.userId, started_at: activity.startedAt, ended_at: activity.endedAt });
}

export async function updateActivity(db: Db, organizationId: string, activityId: string, changes: ActivityChanges): Promise<void> {
  const set: Updateable<ActivitiesTable> = {};
  if (changes.name !== undefined) set.name = changes.name;
  if (changes.billable !== undefined) set.billable = toDbBool(changes.billable);
  if (changes.startedAt !== undefined) set.started_at = changes.startedAt;
  if (changes.endedAt !== undefined) set.ended_at = changes.endedAt;
  if (changes.projectId !== undefined) set.project_id = changes.projectId;
  set.updated_at = nowIso();
  const query = db.updateTable('activities').set(set).where('id', '=', activityId).where('organization_id', '=', organizationId);
  if (changes.startedAt === undefined && changes.endedAt === undefined) {
    await query.execute();
    return;
  }
  const before = (await FIND_ACTIVITY(db, [activityId, organizationId]))[0];
  const after = await query.returning(['organization_id', 'user_id', 'started_at', 'ended_at']).executeTakeFirst();
  if (after) await noteLength(db, after);
  if (before) await forgetLength(db, before);
}

/** Stops a timer unless someone stopped it first; true when this call stopped it. */
export async function closeTimer(db: Db, organizationId: string, activityId: string, endedAt: string): Promise<boolean> {
  const closed = await db
    .updateTable('activities')
    .set({ ended_at: endedAt, updated_at: nowIso() })
    .where('id', '=', activityId)
    .where('ended_at', 'is', null)
    .where('organization_id', '=', organizationId)
    .returning(['organization_id', 'user_id', 'started_at', 'ended_at'])
    .executeTakeFirst();
  if (closed) await noteLength(db, closed);
  return closed !== undefined;
}

export async function deleteActivity(db: Db, organizationId: string, activityId: string): Promise<boolean> {
  const deleted = await db
    .deleteFrom('activities')
    .where('id', '=', activityId)
    .where('organization_id', '=', organizationId)
    .returning(['organization_id', 'user_id', 'started_at', 'ended_at'])
    .executeTakeFirst();
  if (deleted) await forgetLength(db, deleted);
  return deleted !== undefined;
}

/** Whether the reader administers the project (an unarchived member with the project-admin role: db/record-scopes.ts). */
export { administersProject } from '../../db/record-scopes.js';

/** The user's role in the workspace (the owner of an activity an admin edits). */
export async function findUserRole(db: Db, organizationId: string, userId: string): Promise<string | undefined> {
  const row = await db
    .selectFrom('users')
    .select('role')
    .where('id', '=', userId)
    .where('organization_id', '=', organizationId)
    .executeTakeFirst();
  return row?.role;
}

function toActivity(row: ActivityRow): Activity {
  return {
    id: row.id,
    name: row.name,
    billable: fromDbBool(row.billable),
    startedAt: row.started_at,
    endedAt: row.ended_at,
    projectId: row.project_id,
    userId: row.user_id,
  };
}
