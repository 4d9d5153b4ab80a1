import type { Kysely } from 'kysely';
import type { Dialect } from '../database.js';

/** What a migration is told of the store it runs on: the dialect, where a column type or an index differs. */
export interface MigrationContext {
  dialect: Dialect;
}

export interface MigrationModule {
  up(db: Kysely<unknown>, context: MigrationContext): Promise<void>;
}
