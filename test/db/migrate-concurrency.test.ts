import { describe, expect, it } from 'vitest';
import { eachStore, runCli, sharedDatabaseUrl } from '../support/processes.js';
import { loadMigrations, migrateToLatest, openStore } from '../support/src.js';

const ALL = Object.keys(await loadMigrations());

/**
 * docs/rules.md (Install and start): starters that migrate one fresh database at once wait for each
 * other, so exactly one applies every migration and the others find nothing to do. On PostgreSQL the
 * advisory lock is taken before the migrations table is created: creating it outside the lock failed
 * about one start in eight (duplicate key in pg_type). The race is widened by many rounds of several
 * starters on fresh schemas, in one process (each starter with its own pool: its own connections).
 */
// PostgreSQL only (SQLite's starters meet at the file's write lock): named without a store tag, since
// CI compares the tagged tests of the two stores one for one.
for (const store of eachStore.filter((each) => each.name === 'postgres')) {
  describe('migrations on a fresh PostgreSQL schema', () => {
    it('concurrent starters on an empty schema all succeed and exactly one applies every migration', async () => {
      const SCHEMAS = 12;
      const STARTERS = 4;
      const failures: string[] = [];
      for (let round = 0; round < 4; round++) {
        await Promise.all(
          Array.from({ length: SCHEMAS }, async () => {
            const url = store.freshUrl();
            const stores = Array.from({ length: STARTERS }, () => openStore(url));
            try {
              const results = await Promise.allSettled(stores.map((each) => migrateToLatest(each)));
              for (const result of results) if (result.status === 'rejected') failures.push(String(result.reason));
              const applied = results.flatMap((result) => (result.status === 'fulfilled' ? [result.value] : []));
              if (failures.length === 0) {
                expect(applied.filter((names) => names.length > 0)).toEqual([ALL]);
                expect(applied.filter((names) => names.length === 0)).toHaveLength(STARTERS - 1);
              }
            } finally {
              await Promise.all(stores.map((each) => each.close()));
            }
          }),
        );
      }
      expect(failures).toEqual([]);
    }, 120_000);
  });
}

for (const store of eachStore) {
  describe(`migrations on a fresh database [${store.name}]`, () => {
    it('three `timetrack migrate` at once on an empty database all exit 0 and exactly one applies every migration', async () => {
      const url = sharedDatabaseUrl(store);
      const runs = await Promise.all([1, 2, 3].map(() => runCli(['migrate'], { DATABASE_URL: url })));
      expect(runs.map((run) => [run.code, run.stderr])).toEqual([
        [0, ''],
        [0, ''],
        [0, ''],
      ]);
      const applied = runs.map((run) => JSON.parse(run.stdout).applied as string[]);
      expect(applied.filter((names) => names.length > 0)).toEqual([ALL]);
      expect(applied.filter((names) => names.length === 0)).toHaveLength(2);
    }, 60_000);
  });
}
