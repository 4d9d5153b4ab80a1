import fs from 'node:fs';
import path from 'node:path';
import SqliteDatabase from 'better-sqlite3';
import { Kysely, PostgresDialect, SqliteDialect, sql, type SqliteDialectConfig, type Transaction } from 'kysely';
import pg from 'pg';
import type { Database } from './schema.js';

export type Dialect = 'sqlite' | 'postgres';

/** A handle that runs queries either directly or inside a transaction: data-access code takes this. */
export type Db = Kysely<Database> | Transaction<Database>;

export interface Store {
  db: Kysely<Database>;
  dialect: Dialect;
  /** The PostgreSQL schema the store is confined to, when DATABASE_URL names one. */
  schema?: string;
  /** Answers when the database does: used by /readyz. */
  ping(): Promise<void>;
  close(): Promise<void>;
}

// int8 (counts, sums) arrive as JavaScript numbers, as they do from SQLite.
pg.types.setTypeParser(20, (value) => Number(value));

/**
 * Opens the store named by a DATABASE_URL:
 * `sqlite:path/to/file.db[?synchronous=normal]`, `sqlite::memory:`, or
 * `postgres://user@host:port/db[?schema=name]`.
 * The optional `schema` parameter confines a PostgreSQL store to one schema (created if missing).
 * The optional `synchronous=normal` trades SQLite's default durability (FULL: every commit is on
 * disk before it is acknowledged) for write speed: in WAL mode a commit then survives a crash of the
 * process but may be lost, never corrupting the database, when the machine itself loses power.
 */
export function openStore(url: string): Store {
  if (url.startsWith('sqlite:')) return openSqlite(url.slice('sqlite:'.length));
  if (url.startsWith('postgres://') || url.startsWith('postgresql://')) return openPostgres(url);
  throw new Error(`DATABASE_URL must start with sqlite: or postgres://, got "${url}"`);
}

function openSqlite(location: string): Store {
  const option = /\?synchronous=(full|normal)$/i.exec(location);
  const file = option ? location.slice(0, option.index) : location;
  const inMemory = file === ':memory:' || file === '';
  if (!inMemory) fs.mkdirSync(path.dirname(path.resolve(file)), { recursive: true });
  const connection = new SqliteDatabase(inMemory ? ':memory:' : file);
  if (!inMemory) connection.pragma('journal_mode = WAL');
  // FULL (the default): a transaction is on disk before the request that made it is acknowledged.
  connection.pragma(`synchronous = ${option ? option[1].toUpperCase() : 'FULL'}`);
  connection.pragma('foreign_keys = ON');
  connection.pragma('busy_timeout = 5000');
  const db = new Kysely<Database>({ dialect: new SqliteDialect({ database: withStatementCache(connection) }) });
  return {
    db,
    dialect: 'sqlite',
    ping: async () => {
      await sql`select 1`.execute(db);
    },
    close: () => db.destroy(),
  };
}

/**
 * A SQLite query whose SQL starts with this comment answers each row's first column alone
 * (better-sqlite3's pluck mode) instead of an object per row: for reading many rendered JSON
 * fragments without a JavaScript object for each. To PostgreSQL it is just a comment.
 */
export const PLUCK = '/* pluck */ ';

/** Prepared statements kept per SQL text; the least recently used goes past this many. */
const STATEMENT_CACHE_SIZE = 500;

/**
 * The connection as Kysely sees it, preparing each distinct statement once: Kysely asks for a
 * statement on every query, and compiling one costs more than running a primary-key read.
 * Statements recompile themselves after a schema change (SQLite re-prepares on SQLITE_SCHEMA).
 * One connection runs one query at a time (Kysely's mutex), so a cached statement is never in use twice.
 */
function withStatementCache(connection: SqliteDatabase.Database): SqliteDialectConfig['database'] {
  const statements = new Map<string, SqliteDatabase.Statement>();
  return {
    close: () => {
      statements.clear();
      connection.close();
    },
    prepare: (text: string) => {
      let statement = statements.get(text);
      if (statement === undefined) {
        statement = connection.prepare(text);
        if (text.startsWith(PLUCK)) statement.pluck();
        if (statements.size >= STATEMENT_CACHE_SIZE) statements.delete(statements.keys().next().value!);
      } else {
        statements.delete(text);
      }
      statements.set(text, statement);
      return statement;
    },
  };
}

function openPostgres(url: string): Store {
  const parsed = new URL(url);
  const schema = parsed.searchParams.get('schema');
  parsed.searchParams.delete('schema');
  if (schema !== null && !/^[a-z_][a-z0-9_]{0,62}$/.test(schema)) {
    throw new Error(`the schema parameter of DATABASE_URL must be a lowercase identifier, got "${schema}"`);
  }
  const pool = new pg.Pool({
    connectionString: parsed.toString(),
    max: 10,
    options: schema ? `-c search_path=${schema}` : undefined,
  });
  let schemaReady: Promise<void> | undefined;
  const ensureSchema = () =>
    (schemaReady ??= schema
      ? pool.query(`create schema if not exists ${schema}`).then(() => undefined)
      : Promise.resolve());
  const db = new Kysely<Database>({
    dialect: new PostgresDialect({
      pool: async () => {
        await ensureSchema();
        return pool;
      },
    }),
  });
  return {
    db,
    dialect: 'postgres',
    ...(schema ? { schema } : {}),
    ping: async () => {
      await sql`select 1`.execute(db);
    },
    close: () => db.destroy(),
  };
}
