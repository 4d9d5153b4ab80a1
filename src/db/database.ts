import fs from 'node:fs';
import path from 'node:path';
import SqliteDatabase from 'better-sqlite3';
import { Kysely, PostgresAdapter, PostgresDialect, sql, type SqliteDatabase as KyselySqliteDatabase, type ControlledTransaction, type Transaction, type TransactionBuilder } from 'kysely';
import pg from 'pg';
import { BatchingSqliteDialect } from './batched-transactions.js';
import { startCheckpointer } from './checkpointer.js';
import { rerunAfterLockConflict } from './errors.js';
import type { Database } from './schema.js';
import { type SnapshotReader, startSnapshotReader } from './snapshot-reader.js';
import { WalSync, type Flush } from './wal-sync.js';

export type Dialect = 'sqlite' | 'postgres';

/** A handle that runs queries either directly or inside a transaction: data-access code takes this. */
export type Db = Kysely<Database> | Transaction<Database>;

/**
 * A handle inside a transaction: functions whose steps must commit or roll back together (a check
 * and the write it guards, a row lock) take this, so a caller without a transaction cannot call them.
 */
export type Trx = Transaction<Database>;

/** The store behind a handle, for the few statements written per dialect. */
export const dialectOf = (db: Db): Dialect => (db.getExecutor().adapter instanceof PostgresAdapter ? 'postgres' : 'sqlite');

const snapshotReaders = new WeakMap<Kysely<Database>, SnapshotReader>();

/**
 * The reader thread of the SQLite file behind a handle (see SnapshotReader), for the long reads that
 * must not run on the event loop; none on PostgreSQL, in memory, inside a transaction (whose reads
 * belong to it), or when the thread has failed.
 */
export function snapshotReaderOf(db: Db): SnapshotReader | undefined {
  if (db.isTransaction) return undefined;
  const reader = snapshotReaders.get(db as Kysely<Database>);
  return reader?.available ? reader : undefined;
}

const longReadHandles = new WeakMap<Kysely<Database>, Kysely<Database>>();

/**
 * PostgreSQL: the handle whose connections hold the snapshots of long reads (a long listing, a
 * detailed export), a pool of their own beside the one every other request uses: however many long
 * answers their clients leave unread, they hold none of the connections other requests need
 * (docs/durability.md §7). None on SQLite or inside a transaction.
 */
function longReadsOf(db: Db): Kysely<Database> | undefined {
  if (db.isTransaction) return undefined;
  return longReadHandles.get(db as Kysely<Database>);
}

/**
 * The snapshot a PostgreSQL long read is read in: a REPEATABLE READ transaction on a connection of
 * the long reads' pool (longReadsOf), the caller's own inside a transaction. The caller ends it.
 */
export async function startLongRead(db: Db): Promise<ControlledTransaction<Database>> {
  try {
    return await (longReadsOf(db) ?? db).startTransaction().setIsolationLevel('repeatable read').execute();
  } catch (error) {
    throw (error as Error).message === POOL_WAIT_EXCEEDED ? new LongReadsExhausted() : error;
  }
}

/** What pg's pool fails with when no connection came within connectionTimeoutMillis. */
const POOL_WAIT_EXCEEDED = 'timeout exceeded when trying to connect';

/** Every long-read connection stayed taken for LONG_READ_WAIT_MS: the request is answered busy, not held. */
export class LongReadsExhausted extends Error {
  constructor() {
    super(`every long-read connection stayed taken for ${LONG_READ_WAIT_MS} ms`);
  }
}

/** Connections of an instance's PostgreSQL pool for every request but the long reads. */
const POOL_CONNECTIONS = 10;
/** Connections for PostgreSQL's long reads, in a pool of their own; more long reads at once wait for one. */
export const LONG_READ_CONNECTIONS = 8;
/** How long a long read waits for one of those connections before it is answered 503 busy (docs/rules.md §3). */
export const LONG_READ_WAIT_MS = 2_000;

export interface Store {
  db: Kysely<Database>;
  dialect: Dialect;
  /** The PostgreSQL schema the store is confined to, when DATABASE_URL names one. */
  schema?: string;
  /**
   * Resolves once every write made so far is on disk, so it may be acknowledged. Immediate where a
   * commit itself waits for the disk (PostgreSQL, SQLite at FULL) or there is no disk (in memory).
   */
  durable(): Promise<void>;
  /** Whether durable() would wait: a cheap test for the hot path. */
  readonly writesPending: boolean;
  /** Answers when the database does: used by /readyz. */
  ping(): Promise<void>;
  /**
   * PostgreSQL: the connections of the request pool and the long reads' pool together, those taken
   * by a query or transaction and the requests waiting for one (for the metrics). SQLite has no pool:
   * its one connection is never waited for, so both are 0.
   */
  poolStats(): PoolStats;
  /** SQLite file: the size of its write-ahead log in bytes (0 when there is none yet); undefined in memory and on PostgreSQL. */
  walBytes(): Promise<number | undefined>;
  close(): Promise<void>;
}

export interface PoolStats {
  inUse: number;
  waiting: number;
}

const NO_POOL: PoolStats = { inUse: 0, waiting: 0 };

// int8 (counts, sums) arrive as JavaScript numbers, as they do from SQLite.
pg.types.setTypeParser(20, (value) => Number(value));

export interface StoreOptions {
  /** SQLite files: the WAL's flush, replaceable in tests (see WalSync). */
  flush?: Flush;
}

/**
 * Opens the store named by a DATABASE_URL:
 * `sqlite:path/to/file.db[?synchronous=full|normal]`, `sqlite::memory:`, or
 * `postgres://user@host:port/db[?schema=name]`.
 * The optional `schema` parameter confines a PostgreSQL store to one schema (created if missing).
 *
 * A SQLite file runs in WAL mode. By default its writes are group-committed (WalSync): a commit is
 * on disk before durable() resolves, with one fsync off the event loop for many commits. Callers
 * that acknowledge a write await durable() first (the app does it for every answer).
 * `synchronous=full` flushes inside every commit instead (on the event loop); `synchronous=normal`
 * never waits for the disk: a commit then survives a crash of the process but may be lost, never
 * corrupting the database, when the machine itself loses power. Checkpoints are copied by a worker
 * thread (startCheckpointer), which leaves little for SQLite's own checkpoint in a commit.
 */
export function openStore(url: string, options: StoreOptions = {}): Store {
  if (url.startsWith('sqlite:')) return openSqlite(url.slice('sqlite:'.length), options);
  if (url.startsWith('postgres://') || url.startsWith('postgresql://')) return openPostgres(url);
  throw new Error(`DATABASE_URL must start with sqlite: or postgres://, got "${url}"`);
}

const alreadyDurable = () => Promise.resolve();

function openSqlite(location: string, options: StoreOptions): Store {
  const option = /\?synchronous=(full|normal)$/i.exec(location);
  const file = option ? location.slice(0, option.index) : location;
  const inMemory = file === ':memory:' || file === '';
  if (!inMemory) fs.mkdirSync(path.dirname(path.resolve(file)), { recursive: true });
  const connection = new SqliteDatabase(inMemory ? ':memory:' : file);
  if (!inMemory) connection.pragma('journal_mode = WAL');
  const walSync = inMemory || option ? undefined : new WalSync(file, options.flush);
  connection.pragma(`synchronous = ${option ? option[1].toUpperCase() : walSync ? 'NORMAL' : 'FULL'}`);
  connection.pragma('foreign_keys = ON');
  connection.pragma('busy_timeout = 5000');
  const checkpointer = inMemory ? undefined : startCheckpointer(file, connection);
  const reader = inMemory ? undefined : startSnapshotReader(file);
  const dialect = new BatchingSqliteDialect({ database: withStatementCache(connection, walSync) }, connection);
  const batches = dialect.driver;
  const db = new Kysely<Database>({ dialect });
  if (reader) snapshotReaders.set(db, reader);
  return {
    db,
    dialect: 'sqlite',
    // A batch has committed before the transactions in it resolve (BatchingSqliteDialect): only the WAL's flush is left.
    durable: walSync ? () => walSync.durable() : alreadyDurable,
    get writesPending() {
      return walSync?.pending ?? false;
    },
    ping: async () => {
      await sql`select 1`.execute(db);
    },
    poolStats: () => NO_POOL,
    walBytes: async () => {
      if (inMemory) return undefined;
      try {
        return (await fs.promises.stat(`${file}-wal`)).size;
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === 'ENOENT') return 0;
        throw error;
      }
    },
    close: async () => {
      await batches.settled().catch(() => undefined);
      await reader?.stop();
      await walSync?.close();
      await checkpointer?.stop();
      await db.destroy();
    },
  };
}

/** Prepared statements kept per SQL text; the least recently used goes past this many. */
const STATEMENT_CACHE_SIZE = 500;

/**
 * The connection as Kysely sees it, preparing each distinct statement once: Kysely asks for a
 * statement on every query, and compiling one costs more than running a primary-key read.
 * Statements recompile themselves after a schema change (SQLite re-prepares on SQLITE_SCHEMA).
 * One connection runs one query at a time (Kysely's mutex), so a cached statement is never in use twice.
 */
function withStatementCache(connection: SqliteDatabase.Database, walSync: WalSync | undefined): KyselySqliteDatabase {
  const statements = new Map<string, { statement: SqliteDatabase.Statement; kind: StatementKind }>();
  // Whether the open transaction has written: its COMMIT then counts as a write for the WAL's flush.
  let transactionWrote = false;
  return {
    close: () => {
      statements.clear();
      connection.close();
    },
    prepare: (text: string) => {
      let cached = statements.get(text);
      if (cached === undefined) {
        const statement = connection.prepare(text);
        cached = { statement, kind: kindOf(statement, text) };
        if (statements.size >= STATEMENT_CACHE_SIZE) statements.delete(statements.keys().next().value!);
      } else {
        statements.delete(text);
      }
      statements.set(text, cached);
      // Kysely runs a statement right after preparing it, in the same turn of the event loop: a write
      // is counted before anything can ask for a flush, and only once it is committed.
      if (cached.kind === 'write') {
        if (connection.inTransaction) transactionWrote = true;
        else walSync?.noteWrite();
      } else if (cached.kind === 'commit') {
        if (transactionWrote) walSync?.noteWrite();
        transactionWrote = false;
      }
      return cached.statement;
    },
  };
}

type StatementKind = 'read' | 'write' | 'commit';

/** SQLite counts COMMIT as read-only, yet it is the statement that makes a transaction's writes count. */
function kindOf(statement: SqliteDatabase.Statement, text: string): StatementKind {
  if (/^\s*commit\b/i.test(text)) return 'commit';
  return statement.readonly ? 'read' : 'write';
}

/** How many times a PostgreSQL transaction runs at most when it keeps losing deadlocks. */
export const LOCK_CONFLICT_RUNS = 3;

/**
 * A PostgreSQL handle whose transactions run again when PostgreSQL rolls them back to break a
 * deadlock or a serialization failure (rerunAfterLockConflict): two writers that lock the same rows
 * in opposite orders (a timer's start and the deletion of its user, a request's resolution and the
 * deletion of its requester) both get an answer instead of one of them a 500. A transaction's callback
 * only touches the database, so running it again is safe.
 */
class RerunningKysely<DB> extends Kysely<DB> {
  override transaction(): TransactionBuilder<DB> {
    return rerunning(super.transaction());
  }
}

function rerunning<DB>(builder: TransactionBuilder<DB>): TransactionBuilder<DB> {
  return new Proxy(builder, {
    get(target, property, receiver) {
      if (property === 'execute') {
        return <T>(callback: (trx: Transaction<DB>) => Promise<T>) =>
          rerunAfterLockConflict(() => target.execute(callback), LOCK_CONFLICT_RUNS);
      }
      if (property === 'setIsolationLevel' || property === 'setAccessMode') {
        return (value: never) => rerunning(target[property](value));
      }
      return Reflect.get(target, property, receiver) as unknown;
    },
  });
}

/** What PgBouncer answers a transaction in statement pooling mode, and a startup option it does not pass on. */
const STATEMENT_POOLING = /transaction blocks not allowed in statement pooling mode/;
const OPTIONS_REFUSED = /unsupported startup parameter: options/;
const USE_THE_DATABASE_SEARCH_PATH =
  'through PgBouncer, leave the schema parameter out and give the database (or its user) the search path (docs/operations.md, "PgBouncer")';

/**
 * Checks, before the store's first query, that its connections run transactions and run in the
 * schema DATABASE_URL names, which the store asks for with the startup option `search_path`
 * (docs/operations.md "PgBouncer"). A pooler in transaction or session mode needs nothing else: the
 * store keeps no state on a connection between transactions (no SET, named prepared statement,
 * session advisory lock, LISTEN, temporary table or cursor held open).
 */
async function checkConnections(pool: pg.Pool, schema: string | null): Promise<void> {
  const client = await pool.connect();
  let broken = true;
  try {
    await client.query('begin');
    const { rows } = await client.query<{ schema: string | null }>('select current_schema() as schema');
    await client.query('commit');
    broken = false;
    if (schema && rows[0].schema !== schema) {
      throw new Error(
        `DATABASE_URL names the schema "${schema}", but its connections run in "${rows[0].schema ?? 'none'}": ` +
          'a pooler dropped the startup option that sets the search path (PgBouncer with ignore_startup_parameters = options). ' +
          USE_THE_DATABASE_SEARCH_PATH.replace('through', 'Through'),
      );
    }
  } finally {
    client.release(broken);
  }
}

/** The store cannot work through such a connection: PgBouncer's refusals, restated with the operator's fix. */
function poolerRefusal(error: unknown, schema: string | null): Error | undefined {
  const message = error instanceof Error ? error.message : '';
  if (STATEMENT_POOLING.test(message)) {
    return new Error(
      'DATABASE_URL reaches PostgreSQL through PgBouncer in statement pooling mode, which runs no transaction: ' +
        'timetrack needs pool_mode = transaction (or session) (docs/operations.md, "PgBouncer")',
      { cause: error },
    );
  }
  if (OPTIONS_REFUSED.test(message)) {
    return new Error(`DATABASE_URL names the schema "${schema}", which is set with a startup option that PgBouncer refuses: ${USE_THE_DATABASE_SEARCH_PATH}`, {
      cause: error,
    });
  }
  return undefined;
}

function openPostgres(url: string): Store {
  const parsed = new URL(url);
  const schema = parsed.searchParams.get('schema');
  parsed.searchParams.delete('schema');
  if (schema !== null && !/^[a-z_][a-z0-9_]{0,62}$/.test(schema)) {
    throw new Error(`the schema parameter of DATABASE_URL must be a lowercase identifier, got "${schema}"`);
  }
  const poolOf = (max: number, connectionTimeoutMillis = 0) =>
    new pg.Pool({ connectionString: parsed.toString(), max, connectionTimeoutMillis, options: schema ? `-c search_path=${schema}` : undefined });
  const pool = poolOf(POOL_CONNECTIONS);
  const longReadPool = poolOf(LONG_READ_CONNECTIONS, LONG_READ_WAIT_MS);
  // Starters opening one fresh schema at once may both try to create it: the loser's duplicate key
  // (or "already exists") means the schema is there, which is all this asks.
  const createSchema = () =>
    pool.query(`create schema if not exists ${schema}`).then(
      () => undefined,
      (error: { code?: string }) => {
        if (error.code !== '23505' && error.code !== '42P06') throw error;
      },
    );
  // Once per store, before its first query; a failure is tried again by the next query.
  let ready: Promise<void> | undefined;
  const ensureReady = () =>
    (ready ??= (schema ? createSchema() : Promise.resolve()).then(() => checkConnections(pool, schema)).catch((error: unknown) => {
      ready = undefined;
      throw poolerRefusal(error, schema) ?? error;
    }));
  const dialectOver = (of: pg.Pool) =>
    new PostgresDialect({
      pool: async () => {
        await ensureReady();
        return of;
      },
    });
  const db = new RerunningKysely<Database>({ dialect: dialectOver(pool) });
  // A long read's snapshot streams its answer as it reads: it is never rerun, so no RerunningKysely.
  const longReads = new Kysely<Database>({ dialect: dialectOver(longReadPool) });
  longReadHandles.set(db, longReads);
  return {
    db,
    dialect: 'postgres',
    ...(schema ? { schema } : {}),
    // A COMMIT answers once it is on disk (synchronous_commit on, PostgreSQL's default).
    durable: alreadyDurable,
    writesPending: false,
    ping: async () => {
      await sql`select 1`.execute(db);
    },
    poolStats: () => ({
      inUse: pool.totalCount - pool.idleCount + longReadPool.totalCount - longReadPool.idleCount,
      waiting: pool.waitingCount + longReadPool.waitingCount,
    }),
    walBytes: async () => undefined,
    close: async () => {
      await longReads.destroy();
      await db.destroy();
    },
  };
}
