import { Migrator } from 'kysely';
import type { Store } from './database.js';
import { ListedMigrations } from './migrations/index.js';

/** Applies every pending migration; throws (and applies nothing further) when one fails. */
export async function migrateToLatest(store: Store): Promise<string[]> {
  const migrator = new Migrator({
    db: store.db,
    provider: new ListedMigrations({ dialect: store.dialect }),
    // Without it Kysely may find another schema's migration tables and skip creating its own.
    ...(store.schema ? { migrationTableSchema: store.schema } : {}),
  });
  const { error, results } = await migrator.migrateToLatest();
  if (error) {
    const failed = results?.find((r) => r.status === 'Error')?.migrationName ?? 'unknown';
    throw new Error(`migration ${failed} failed: ${error instanceof Error ? error.message : String(error)}`, {
      cause: error,
    });
  }
  return (results ?? []).filter((r) => r.status === 'Success').map((r) => r.migrationName);
}
