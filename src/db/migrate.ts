import { sql, type Kysely } from 'kysely';
import type { Store } from './database.js';
import { loadMigrations } from './migrations/index.js';

/*
 * A deliberately small migrator instead of Kysely's: Kysely's reads the whole PostgreSQL catalog on
 * every start, which grows slow (seconds) in a database holding many schemas and fails when another
 * schema is dropped meanwhile. This one reads one table of its own.
 *
 * All pending migrations run in one transaction with their records, so a failure applies none of
 * them. Concurrent starters (several instances, the CLI) wait for each other, and the lock comes
 * FIRST, before the migrations table is even created: on PostgreSQL two concurrent
 * `create table if not exists` on an empty schema can both decide to create it, and the loser fails
 * with a duplicate key in pg_type (about one start in eight with three starters). PostgreSQL takes a
 * transaction-scoped advisory lock per schema as the transaction's first statement; SQLite holds its
 * write lock from the transaction's BEGIN IMMEDIATE (BatchingSqliteDialect). Proven by
 * test/db/migrate-concurrency.test.ts.
 */
export async function migrateToLatest(store: Store): Promise<string[]> {
  const db = store.db as unknown as Kysely<unknown>;
  const migrations = await loadMigrations();
  return db.transaction().execute(async (trx) => {
    if (store.dialect === 'postgres') {
      await sql`select pg_advisory_xact_lock(hashtext('timetrack_migrations'), hashtext(current_schema()))`.execute(trx);
    }
    await sql`create table if not exists timetrack_migrations (name text primary key, applied_at text not null)`.execute(trx);
    const done = await sql<{ name: string }>`select name from timetrack_migrations`.execute(trx);
    const applied = new Set(done.rows.map((row) => row.name));
    const ran: string[] = [];
    for (const [name, migration] of Object.entries(migrations)) {
      if (applied.has(name)) continue;
      try {
        await migration.up(trx, { dialect: store.dialect });
      } catch (error) {
        throw new Error(`migration ${name} failed: ${error instanceof Error ? error.message : String(error)}`, {
          cause: error,
        });
      }
      await sql`insert into timetrack_migrations (name, applied_at) values (${name}, ${new Date().toISOString()})`.execute(trx);
      ran.push(name);
    }
    return ran;
  });
}
