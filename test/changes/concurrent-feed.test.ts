import { describe, it } from 'vitest';
import { eachStore, sharedDatabaseUrl } from '../support/processes.js';
import { feedFollowedAcrossInstances } from './concurrent-feed-scenario.js';

/*
 * The feed under concurrent writers, through real server processes on one database: three instances
 * on PostgreSQL (where transactions commit in parallel and positions could otherwise become visible
 * out of order), one on SQLite (one writer per file). The scenario is in concurrent-feed-scenario.ts
 * (test/operations/pgbouncer.test.ts runs it through PgBouncer too).
 */

for (const store of eachStore) {
  describe(`change feed under concurrent writers [${store.name}]`, () => {
    it('a reader following the cursor across instances sees every acknowledged write exactly once, in commit order per record', async () => {
      await feedFollowedAcrossInstances(sharedDatabaseUrl(store), store.name === 'postgres' ? 3 : 1);
    }, 240_000);
  });
}
