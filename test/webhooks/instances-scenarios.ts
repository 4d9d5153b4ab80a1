import { expect } from 'vitest';
import { request, runCli, startServer, type RunningServer } from '../support/processes.js';
import type { Receiver } from './receiver.js';

/*
 * The scenarios of webhook delivery by several server processes sharing one PostgreSQL database
 * (docs/webhooks.md "Several instances"), on the DATABASE_URL given: test/webhooks/instances.test.ts
 * runs them on a schema of the test server, test/operations/pgbouncer.test.ts through PgBouncer.
 * Every server a scenario starts is pushed on `servers`, for the suite to stop.
 */

/** A fresh PostgreSQL schema is migrated at the first start: slow on a loaded machine. */
const SLOW_START = { startTimeoutMs: 90_000 };

const WORKER = { WEBHOOK_ALLOW_PRIVATE: 'true', WEBHOOK_WORKER_INTERVAL_MS: '20', BOOTSTRAP: 'false' };

async function until(condition: () => boolean, what: string, ms = 30_000): Promise<void> {
  const end = Date.now() + ms;
  while (!condition()) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

export interface Instances {
  receiver: Receiver;
  servers: RunningServer[];
}

async function workspace(databaseUrl: string) {
  const domain = `wh${process.pid}${Date.now().toString(36)}`;
  const created = await runCli(['workspace', 'create', '--domain', domain, '--name', 'Webhooks', '--admin-email', `admin@${domain}.example.com`], {
    DATABASE_URL: databaseUrl,
  });
  expect(created.code, created.stderr).toBe(0);
  const { apiKey } = JSON.parse(created.stdout);
  const headers = { host: `${domain}.localhost`, authorization: `Bearer ${apiKey}`, 'content-type': 'application/json' };
  return (server: RunningServer, method: string, path: string, body?: unknown) =>
    request(server.port, method, `/api${path}`, headers, body === undefined ? undefined : JSON.stringify(body));
}

/** Three instances deliver every event exactly once, in order per webhook: pings, and changes written through all three. */
export async function threeInstancesDeliverEveryEventOnce(databaseUrl: string, { receiver, servers }: Instances): Promise<void> {
  const call = await workspace(databaseUrl);
  servers.push(await startServer({ DATABASE_URL: databaseUrl, ...WORKER }, SLOW_START));
  servers.push(...(await Promise.all([1, 2].map(() => startServer({ DATABASE_URL: databaseUrl, ...WORKER }, SLOW_START)))));
  receiver.received.length = 0;
  const sent: Record<string, string[]> = {};
  const paths = ['/a', '/b', '/c'];
  for (const path of paths) {
    const created = await call(servers[0], 'POST', '/webhooks', { url: receiver.url(path), events: ['*'] });
    expect(created.status).toBe(200);
    const [ping] = (await call(servers[0], 'GET', `/webhooks/${created.body.id}/deliveries`)).body;
    sent[path] = [ping.eventId];
    for (let n = 0; n < 20; n++) {
      const queued = await call(servers[n % 3], 'POST', `/webhooks/${created.body.id}/ping`);
      expect(queued.status).toBe(200);
      sent[path].push(queued.body.eventId);
    }
  }
  // 30 changes, ten at a time across the instances, while their workers queue and deliver.
  for (let batch = 0; batch < 3; batch++) {
    const written = await Promise.all(
      Array.from({ length: 10 }, (_, n) =>
        call(servers[n % 3], 'POST', '/activities', { name: `Change ${batch}-${n}`, startedAt: '2026-03-02T09:00:00Z', endedAt: '2026-03-02T10:00:00Z' }),
      ),
    );
    for (const res of written) expect(res.status).toBe(200);
  }
  const expected = 3 * (21 + 30);
  await until(() => receiver.received.length >= expected, `all ${expected} deliveries`);
  await new Promise((resolve) => setTimeout(resolve, 500)); // a duplicate would show up by now
  expect(receiver.received).toHaveLength(expected);
  const feed = (await call(servers[1], 'GET', '/changes?limit=1000')).body.events;
  const changes = feed.filter((event: { type: string }) => event.type === 'activity.created').map((event: { id: string }) => event.id);
  expect(changes).toHaveLength(30);
  for (const path of paths) {
    const got = receiver.received.filter((r) => r.path === path);
    expect(new Set(got.map((r) => r.eventId)).size).toBe(51);
    expect(got.filter((r) => r.headers['timetrack-event-type'] === 'ping').map((r) => r.eventId)).toEqual(sent[path]);
    expect(got.filter((r) => r.headers['timetrack-event-type'] === 'activity.created').map((r) => r.eventId)).toEqual(changes);
  }
  for (const server of servers.splice(0)) server.child.kill('SIGKILL');
}

/** A delivery in flight on an instance killed with SIGKILL is delivered again once its lease expires, with the same event id. */
export async function leaseOfAKilledInstanceExpires(databaseUrl: string, { receiver, servers }: Instances): Promise<void> {
  const call = await workspace(databaseUrl);
  const env = { DATABASE_URL: databaseUrl, ...WORKER, WEBHOOK_LEASE_MS: '3000', WEBHOOK_TIMEOUT_MS: '2000' };
  const first = await startServer(env, SLOW_START);
  servers.push(first);
  receiver.received.length = 0;
  let hold = true;
  receiver.answer = (_received, response) => {
    if (hold) return; // the first delivery never gets an answer: its instance dies waiting
    response.writeHead(204).end();
  };
  const created = await call(first, 'POST', '/webhooks', { url: receiver.url('/crash'), events: ['*'] });
  expect(created.status).toBe(200);
  const second = await call(first, 'POST', `/webhooks/${created.body.id}/ping`);
  await until(() => receiver.received.length === 1, 'the first delivery');
  const killedAt = Date.now();
  first.child.kill('SIGKILL');
  await first.exited;
  hold = false;
  const other = await startServer(env, SLOW_START);
  servers.push(other);
  await until(() => receiver.received.length === 3, 'the redelivery and the next event');
  const [held, again, next] = receiver.received;
  expect(again.eventId).toBe(held.eventId);
  expect(again.body).toBe(held.body);
  expect(next.eventId).toBe(second.body.eventId);
  expect(Date.now() - killedAt).toBeGreaterThan(1_000);
  // The receiver has the requests before the run's transaction records their answers.
  let deliveries: any[] = [];
  const readDeliveries = async () => {
    deliveries = (await call(other, 'GET', `/webhooks/${created.body.id}/deliveries`)).body;
    return deliveries.every((d: any) => d.status !== 'pending');
  };
  for (let end = Date.now() + 10_000; !(await readDeliveries()) && Date.now() < end; ) await new Promise((resolve) => setTimeout(resolve, 50));
  expect(deliveries.map((d: any) => [d.eventId, d.status])).toEqual([
    [second.body.eventId, 'succeeded'],
    [held.eventId, 'succeeded'],
  ]);
  // The killed instance's attempt never finished: only the second instance's is recorded.
  expect(deliveries[1].attempts.map((a: any) => a.statusCode)).toEqual([204]);
}
