import { mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { sql, type Kysely } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { activityListingFields, frozenListingIndex, listingMigrationFor } from '../../scripts/db-listing.js';
import { createListingIndexStatement, LISTING_INDEX, loadMigrations, migrateToLatest, openStore, POSTGRES_LISTING_INCLUDE, type MigrationModule, type Store } from '../support/src.js';
import { testStores } from '../support/stores.js';

/*
 * The listing index of GET /activities on a real store (docs/architecture.md "Add a field"): a
 * migrated database holds what src/db/frozen records, and the migration `npm run db:listing` writes
 * for one more field, applied once the column exists, rebuilds the index with that field.
 */

const ROOT = path.resolve(import.meta.dirname, '../..');

for (const store of testStores) {
  describe(`The listing index on a migrated database [${store.name}]`, () => {
    let db: Store;
    let dir: string;
    beforeAll(async () => {
      db = openStore(store.freshUrl());
      await migrateToLatest(db);
      // The generated migration imports kysely: it runs from a folder of its own that sees the project's packages.
      dir = await mkdtemp(path.join(tmpdir(), 'timetrack-listing-'));
      await symlink(path.join(ROOT, 'node_modules'), path.join(dir, 'node_modules'), 'dir');
    });
    afterAll(async () => {
      await db?.close();
      if (dir) await rm(dir, { recursive: true, force: true });
    });

    /** The index as the store reports it: SQLite's create statement, PostgreSQL's indexdef. */
    async function listingIndex(): Promise<string> {
      const query =
        store.name === 'postgres'
          ? sql<{ definition: string }>`select indexdef as definition from pg_indexes where schemaname = current_schema() and indexname = ${LISTING_INDEX}`
          : sql<{ definition: string }>`select sql as definition from sqlite_master where type = 'index' and name = ${LISTING_INDEX}`;
      const { rows } = await query.execute(db.db);
      expect(rows).toHaveLength(1);
      return rows[0].definition;
    }

    it('holds the index src/db/frozen records as current, as the latest listing migration created it', async () => {
      const definition = await listingIndex();
      if (store.name === 'postgres') {
        expect(definition).toMatch(new RegExp(`\\(user_id, started_at, id\\) INCLUDE \\(${POSTGRES_LISTING_INCLUDE.join(', ')}\\)$`));
      } else {
        expect(definition.replace(/^CREATE INDEX /, 'create index ')).toBe(createListingIndexStatement('sqlite', frozenListingIndex));
      }
    });

    it('after a new nullable column, the migration npm run db:listing writes for its field rebuilds the index rendering and including it', async () => {
      const fields = [...activityListingFields(), { key: 'description', column: 'description', as: 'nullable' as const }];
      const migration = listingMigrationFor(fields, frozenListingIndex, Object.keys(await loadMigrations()))!;
      await writeFile(path.join(dir, migration.file), migration.source);
      const generated: MigrationModule = await import(pathToFileURL(path.join(dir, migration.file)).href);

      await sql`alter table activities add column description text`.execute(db.db);
      await db.db.transaction().execute((trx) => generated.up(trx as unknown as Kysely<unknown>, { dialect: store.name }));

      const definition = await listingIndex();
      if (store.name === 'postgres') {
        expect(definition).toMatch(new RegExp(`\\(user_id, started_at, id\\) INCLUDE \\(${[...POSTGRES_LISTING_INCLUDE, 'description'].join(', ')}\\)$`));
        return;
      }
      expect(definition).toContain(migration.definition.sqliteEntry);
      expect(migration.definition.sqliteEntry).toContain(`',"description":' || json_quote(description)`);
      // A user's period rendered with the new entry is read from the rebuilt index alone.
      const { rows } = await sql<{ detail: string }>`explain query plan select ${sql.raw(migration.definition.sqliteEntry)} as entry
        from activities where user_id = ${'someone'} and started_at >= ${'2026-01-01T00:00:00.000Z'} order by started_at, id`.execute(db.db);
      expect(rows.map((row) => row.detail).join('\n')).toContain(`USING COVERING INDEX ${LISTING_INDEX}`);
    });
  });
}
