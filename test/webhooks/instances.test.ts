import { afterAll, beforeAll, describe, it } from 'vitest';
import { eachStore, sharedDatabaseUrl, type RunningServer } from '../support/processes.js';
import { leaseOfAKilledInstanceExpires, threeInstancesDeliverEveryEventOnce } from './instances-scenarios.js';
import { startReceiver, type Receiver } from './receiver.js';

/*
 * Webhook delivery by server processes sharing one PostgreSQL database (docs/webhooks.md "Several
 * instances"): each instance runs a delivery worker. SQLite is served by one process, so these run on
 * PostgreSQL only. The scenarios are in instances-scenarios.ts (test/operations/pgbouncer.test.ts runs
 * them through PgBouncer too).
 */

for (const store of eachStore) {
  describe(`webhook delivery by several instances [${store.name}]`, () => {
    const postgres = store.name === 'postgres';
    const instances = { receiver: undefined as unknown as Receiver, servers: [] as RunningServer[] };
    beforeAll(async () => {
      instances.receiver = await startReceiver();
    });
    afterAll(async () => {
      for (const server of instances.servers) server.child.kill('SIGKILL');
      await instances.receiver?.close();
    });

    it.runIf(postgres)('three instances deliver every event exactly once, in order per webhook: pings, and changes written through all three', async () => {
      await threeInstancesDeliverEveryEventOnce(sharedDatabaseUrl(store), instances);
    }, 120_000);

    it.runIf(postgres)('a delivery in flight on an instance killed with SIGKILL is delivered again once its lease expires, with the same event id', async () => {
      await leaseOfAKilledInstanceExpires(sharedDatabaseUrl(store), instances);
    }, 120_000);
  });
}
