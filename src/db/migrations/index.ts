import { readdirSync } from 'node:fs';
import type { MigrationModule } from './context.js';

export type { MigrationContext, MigrationModule } from './context.js';

/** A migration's file: four digits, an underscore and a name; `.ts` in the sources, `.js` once built. */
const MIGRATION_FILE = /^(\d{4})_[a-z0-9_]+\.(?:ts|js)$/;

/**
 * Every migration of this folder, by name in the order it runs: each file named `00NN_what.ts` is one,
 * so adding a migration is adding its file (never edit one that has shipped). Two files of one number
 * are refused, so that two branches that each added the next migration cannot both land unnoticed.
 */
export function migrationFiles(files: readonly string[]): string[] {
  const names = files.filter((file) => MIGRATION_FILE.test(file)).map((file) => file.replace(/\.(?:ts|js)$/, ''));
  const sorted = [...new Set(names)].sort();
  for (let i = 1; i < sorted.length; i++) {
    if (sorted[i].slice(0, 4) === sorted[i - 1].slice(0, 4)) {
      throw new Error(`Two migrations are numbered ${sorted[i].slice(0, 4)} (${sorted[i - 1]}, ${sorted[i]}): renumber the newer one`);
    }
  }
  return sorted;
}

let loaded: Promise<Record<string, MigrationModule>> | undefined;

/** The migrations of src/db/migrations (or dist/db/migrations once built), loaded once. */
export function loadMigrations(): Promise<Record<string, MigrationModule>> {
  loaded ??= (async () => {
    const folder = new URL('.', import.meta.url);
    const extension = import.meta.url.endsWith('.ts') ? '.ts' : '.js';
    const migrations: Record<string, MigrationModule> = {};
    for (const name of migrationFiles(readdirSync(folder))) {
      migrations[name] = (await import(new URL(`${name}${extension}`, folder).href)) as MigrationModule;
    }
    return migrations;
  })();
  return loaded;
}
