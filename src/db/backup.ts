import fs from 'node:fs';
import path from 'node:path';
import SqliteDatabase from 'better-sqlite3';
import { openStore } from './database.js';
import { migrateToLatest } from './migrate.js';
import { checkMigrations, firstTableWithRows, isPostgresUrl, MIGRATIONS_TABLE, sqliteFileOf, StoreRefusal } from './store-files.js';

/*
 * `timetrack backup` and `timetrack restore` on a SQLite store (docs/operations.md, "Backups and
 * restore"). PostgreSQL has its own tools, pg_dump and pg_restore, which both commands point to.
 */

const PG_DUMP = 'PostgreSQL is backed up with pg_dump --format=custom (see docs/operations.md, "Backups and restore")';
const PG_RESTORE = 'PostgreSQL is restored with pg_restore (see docs/operations.md, "Backups and restore")';

/** SQLite's busy timeout of the backup's and the restore's own connections (the server's is the same). */
const BUSY_TIMEOUT_MS = 5_000;

/** The pages one step of SQLite's backup may copy: all of them, so that the copy is read in one read transaction. */
const ALL_PAGES = 0x7fffffff;

export interface BackupReport {
  file: string;
  bytes: number;
  integrity: 'ok';
  /** The last migration the copy has run: the version of the store it holds. */
  migration: string;
  /** When the copy's snapshot was taken: every write committed before it is in the copy. */
  startedAt: string;
}

export interface RestoreReport {
  file: string;
  from: string;
  bytes: number;
  /** The migrations run on the restored copy to bring an older backup up to this version. */
  applied: string[];
}

function sqliteFileOrRefuse(databaseUrl: string, command: 'backup' | 'restore'): string {
  if (isPostgresUrl(databaseUrl)) throw new StoreRefusal(`timetrack ${command} works on SQLite only: ${command === 'backup' ? PG_DUMP : PG_RESTORE}`);
  if (!databaseUrl.startsWith('sqlite:')) throw new StoreRefusal(`DATABASE_URL must start with sqlite: or postgres://, got "${databaseUrl}"`);
  const file = sqliteFileOf(databaseUrl);
  if (file === undefined) throw new StoreRefusal(`timetrack ${command} needs a SQLite file: an in-memory store (sqlite::memory:) lives and dies with its process`);
  return path.resolve(file);
}

/** A file of the same folder for a copy being made, renamed or linked into place once complete. */
const partialFileFor = (file: string) => path.join(path.dirname(file), `.${path.basename(file)}.${process.pid}.partial`);

function removeQuietly(...files: string[]): void {
  for (const file of files) fs.rmSync(file, { force: true });
}

function fsyncPath(file: string): void {
  const fd = fs.openSync(file, 'r');
  try {
    fs.fsyncSync(fd);
  } finally {
    fs.closeSync(fd);
  }
}

/** Every migration a SQLite database has run, in order; undefined when it has no migrations table (not a timetrack store). */
function migrationsOf(connection: SqliteDatabase.Database): string[] | undefined {
  const table = connection.prepare(`select 1 from sqlite_master where type = 'table' and name = ?`).get(MIGRATIONS_TABLE);
  if (table === undefined) return undefined;
  return connection.prepare(`select name from ${MIGRATIONS_TABLE} order by name`).pluck().all() as string[];
}

const integrityOf = (connection: SqliteDatabase.Database) => (connection.pragma('integrity_check') as { integrity_check: string }[]).map((row) => row.integrity_check);

/**
 * Copies the SQLite store to `out` while the server keeps serving: SQLite's online backup, from a
 * connection of its own, in one step (one read transaction: in WAL mode a consistent snapshot that
 * writers do not wait for). The copy is made beside `out`, switched from WAL to a single file,
 * checked with `PRAGMA integrity_check`, flushed to disk, then linked into place: `out` is either
 * absent or a complete, checked copy. An existing `out` is never overwritten.
 */
export async function backupSqlite(databaseUrl: string, out: string): Promise<BackupReport> {
  const file = sqliteFileOrRefuse(databaseUrl, 'backup');
  const target = path.resolve(out);
  if (fs.existsSync(target)) throw new StoreRefusal(`${out} exists: a backup never overwrites a file; name a new one`);
  if (!fs.existsSync(path.dirname(target))) throw new StoreRefusal(`the folder of ${out} does not exist`);
  if (!fs.existsSync(file)) throw new StoreRefusal(`no SQLite store at ${file}`);

  const partial = partialFileFor(target);
  removeQuietly(partial, `${partial}-journal`);
  const source = new SqliteDatabase(file, { fileMustExist: true, timeout: BUSY_TIMEOUT_MS });
  let startedAt: string;
  try {
    if (migrationsOf(source) === undefined) throw new StoreRefusal(`${file} is not a timetrack store (it has no ${MIGRATIONS_TABLE} table)`);
    startedAt = new Date().toISOString();
    await source.backup(partial, { progress: () => ALL_PAGES });
  } catch (error) {
    removeQuietly(partial);
    throw error;
  } finally {
    source.close();
  }

  let migration: string;
  try {
    const copy = new SqliteDatabase(partial, { fileMustExist: true });
    try {
      // One self-contained file: the WAL's frames (none after a backup) are folded in and the WAL removed.
      copy.pragma('journal_mode = DELETE');
      const integrity = integrityOf(copy);
      if (integrity.length !== 1 || integrity[0] !== 'ok') {
        throw new StoreRefusal(`the copy failed its integrity check (${integrity.slice(0, 3).join('; ')}): no backup was written`);
      }
      migration = migrationsOf(copy)!.at(-1) ?? '';
    } finally {
      copy.close();
    }
    fsyncPath(partial);
    try {
      fs.linkSync(partial, target);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'EEXIST') throw new StoreRefusal(`${out} appeared during the backup: it was left as it is`);
      throw error;
    }
  } finally {
    removeQuietly(partial, `${partial}-wal`, `${partial}-shm`, `${partial}-journal`);
  }
  fsyncPath(path.dirname(target));
  return { file: target, bytes: fs.statSync(target).size, integrity: 'ok', migration, startedAt };
}

/**
 * Refuses a restore target that a process has open (a server: its connection holds the file, and
 * SQLite then refuses this connection an exclusive lock at once) or that holds any row outside the
 * migrations' bookkeeping. A target that does not exist, or is empty, passes.
 */
function checkRestoreTarget(file: string): void {
  if (!fs.existsSync(file)) return;
  const connection = new SqliteDatabase(file, { fileMustExist: true, timeout: 0 });
  try {
    connection.pragma('locking_mode = EXCLUSIVE');
    try {
      connection.exec('begin exclusive');
    } catch (error) {
      const code = (error as { code?: string }).code;
      if (code === 'SQLITE_BUSY' || code === 'SQLITE_LOCKED') {
        throw new StoreRefusal(`${file} is in use by another process (is a server running on it?): stop it before restoring`);
      }
      if (code === 'SQLITE_NOTADB') throw new StoreRefusal(`${file} is not a SQLite database: restore only into a new or empty store`);
      throw error;
    }
    const table = firstTableWithRows(connection);
    connection.exec('rollback');
    if (table !== undefined) {
      throw new StoreRefusal(`${file} is not empty (table ${table} holds rows): restore only into a new or empty store`);
    }
  } finally {
    connection.close();
  }
}

/** Refuses a file that is not a SQLite database passing its integrity check with this app's migrations table. */
async function checkBackupFile(from: string): Promise<void> {
  if (!fs.existsSync(from) || !fs.statSync(from).isFile()) throw new StoreRefusal(`no file ${from}`);
  const header = Buffer.alloc(16);
  const fd = fs.openSync(from, 'r');
  try {
    fs.readSync(fd, header, 0, 16, 0);
  } finally {
    fs.closeSync(fd);
  }
  if (header.toString('latin1') !== 'SQLite format 3\0') throw new StoreRefusal(`${from} is not a SQLite database: restore takes a file made by timetrack backup`);
  let connection: SqliteDatabase.Database;
  try {
    connection = new SqliteDatabase(from, { readonly: true, fileMustExist: true });
  } catch (error) {
    throw new StoreRefusal(`${from} cannot be opened as a SQLite database: ${(error as Error).message}`);
  }
  try {
    let integrity: string[];
    let migrations: string[] | undefined;
    try {
      integrity = integrityOf(connection);
      migrations = migrationsOf(connection);
    } catch (error) {
      throw new StoreRefusal(`${from} cannot be read as a SQLite database: ${(error as Error).message}`);
    }
    if (integrity.length !== 1 || integrity[0] !== 'ok') throw new StoreRefusal(`${from} fails its integrity check (${integrity.slice(0, 3).join('; ')})`);
    if (migrations === undefined) throw new StoreRefusal(`${from} is not a timetrack backup (it has no ${MIGRATIONS_TABLE} table)`);
    await checkMigrations(migrations, from, 'accept');
  } finally {
    connection.close();
  }
}

/**
 * Puts a backup in place of the SQLite store (docs/operations.md, "Restoring"): the backup is
 * checked, the target refused when in use or not empty, the backup copied beside the target and
 * migrated to this version there, then renamed over the target once the target's stale WAL files
 * are removed. A failure at any step leaves the target as it was.
 */
export async function restoreSqlite(databaseUrl: string, from: string): Promise<RestoreReport> {
  const file = sqliteFileOrRefuse(databaseUrl, 'restore');
  const source = path.resolve(from);
  if (source === file) throw new StoreRefusal(`${from} is the store itself`);
  await checkBackupFile(source);
  fs.mkdirSync(path.dirname(file), { recursive: true });
  checkRestoreTarget(file);

  const partial = partialFileFor(file);
  const partials = [partial, `${partial}-wal`, `${partial}-shm`, `${partial}-journal`];
  removeQuietly(...partials);
  let applied: string[];
  try {
    fs.copyFileSync(source, partial);
    const store = openStore(`sqlite:${partial}?synchronous=full`);
    try {
      applied = await migrateToLatest(store);
    } finally {
      await store.close();
    }
    // The last connection's close folds the WAL into the file; a WAL left behind would be lost by the rename.
    if (fs.existsSync(`${partial}-wal`) && fs.statSync(`${partial}-wal`).size > 0) throw new Error('the restored copy kept a write-ahead log after its close');
    fsyncPath(partial);
    // Once the target is checked again (a server may have started meanwhile), its stale WAL files go:
    // SQLite would otherwise replay them over the restored file.
    checkRestoreTarget(file);
    removeQuietly(`${file}-wal`, `${file}-shm`, `${file}-journal`);
    fs.renameSync(partial, file);
  } finally {
    removeQuietly(...partials);
  }
  fsyncPath(path.dirname(file));
  return { file, from: source, bytes: fs.statSync(file).size, applied };
}
