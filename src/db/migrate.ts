import { Migrator } from 'kysely';
import type { Store } from './database.js';
import { ListedMigrations } from './migrations/index.js';

/*
 * Kysely's migrator reads the whole PostgreSQL catalog to find its own tables; a schema dropped by
 * someone else at that instant fails the read (3F000 / 42P01) although nothing is wrong here.
 * Such a failure is tried again; any other one is final.
 */
const CATALOG_RACE = new Set(['3F000', '42P01']);
const ATTEMPTS = 3;

/** Applies every pending migration; throws (and applies nothing further) when one fails. */
export async function migrateToLatest(store: Store): Promise<string[]> {
  const migrator = new Migrator({
    db: store.db,
    provider: new ListedMigrations({ dialect: store.dialect }),
    // Without it Kysely may find another schema's migration tables and skip creating its own.
    ...(store.schema ? { migrationTableSchema: store.schema } : {}),
  });
  for (let attempt = 1; ; attempt++) {
    const { error, results } = await migrator.migrateToLatest();
    if (!error) return (results ?? []).filter((r) => r.status === 'Success').map((r) => r.migrationName);
    const failed = results?.find((r) => r.status === 'Error')?.migrationName;
    const code = (error as { code?: string }).code;
    if (failed === undefined && code !== undefined && CATALOG_RACE.has(code) && attempt < ATTEMPTS) continue;
    throw new Error(
      `migration ${failed ?? '(setup)'} failed: ${error instanceof Error ? error.message : String(error)}`,
      { cause: error },
    );
  }
}
