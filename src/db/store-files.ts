import type SqliteDatabase from 'better-sqlite3';
import { loadMigrations } from './migrations/index.js';

/**
 * What backup, restore and copy (docs/operations.md, "Backups and restore", "Moving from SQLite to
 * PostgreSQL") refuse to do, said to the operator: the CLI prints the message and exits 1.
 */
export class StoreRefusal extends Error {}

/** The table in which a store records the migrations it has run; every other table holds data. */
export const MIGRATIONS_TABLE = 'timetrack_migrations';

/** The file a `sqlite:` DATABASE_URL names (without its `?synchronous=` option); undefined for `sqlite::memory:`. */
export function sqliteFileOf(url: string): string | undefined {
  const location = url.slice('sqlite:'.length).replace(/\?synchronous=(full|normal)$/i, '');
  return location === '' || location === ':memory:' ? undefined : location;
}

export const isPostgresUrl = (url: string) => url.startsWith('postgres://') || url.startsWith('postgresql://');

/** The first table of a SQLite database that holds a row, other than the migrations' bookkeeping. */
export function firstTableWithRows(connection: SqliteDatabase.Database): string | undefined {
  const tables = connection
    .prepare(`select name from sqlite_master where type = 'table' and name not like 'sqlite\\_%' escape '\\' and name <> ? order by name`)
    .pluck()
    .all(MIGRATIONS_TABLE) as string[];
  return tables.find((table) => connection.prepare(`select exists (select 1 from "${table}")`).pluck().get() === 1);
}

/**
 * Refuses a store whose migrations are not exactly this version's: one this version does not know was
 * written by a newer timetrack; a missing one means the store is older (`timetrack migrate` brings it up).
 */
export async function checkMigrations(applied: readonly string[], what: string, older: 'refuse' | 'accept'): Promise<void> {
  const known = Object.keys(await loadMigrations());
  const unknown = applied.filter((name) => !known.includes(name));
  if (unknown.length > 0) {
    throw new StoreRefusal(`${what} was written by a newer timetrack (migration ${unknown[0]} is unknown to this version): use that version`);
  }
  if (older === 'refuse' && applied.length < known.length) {
    const missing = known.find((name) => !applied.includes(name));
    throw new StoreRefusal(`${what} lacks migration ${missing}: run \`timetrack migrate\` on it first`);
  }
}
