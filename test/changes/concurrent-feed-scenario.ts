import { expect } from 'vitest';
import { request, runCli, startServer, type RunningServer } from '../support/processes.js';

/*
 * The change feed under concurrent writers, through real server processes on the DATABASE_URL given:
 * test/changes/concurrent-feed.test.ts runs it on each store, test/operations/pgbouncer.test.ts
 * through PgBouncer. A reader follows the cursor, from instance to instance, while the writers run,
 * and must see every acknowledged write exactly once.
 */

const WRITERS = 12;
const WRITE_MS = 5_000;

interface FeedEvent {
  id: string;
  type: string;
  data: { id: string };
}

function environment(databaseUrl: string): Record<string, string> {
  const env: Record<string, string> = { ...(process.env as Record<string, string>) };
  for (const name of ['REDIS_URL', 'SMTP_URL', 'PUBLIC_URL', 'NODE_ENV']) delete env[name];
  return {
    ...env,
    DATABASE_URL: databaseUrl,
    BASE_DOMAIN: 'localhost',
    BOOTSTRAP: 'false',
    // startServer waits for the "Server listening" line, logged at info.
    LOG_LEVEL: 'info',
    RATE_LIMIT_PER_ADDRESS: '1000000000',
    RATE_LIMIT_PER_TOKEN: '1000000000',
  };
}

/** A reader following the cursor across `instances` servers sees every acknowledged write exactly once, in commit order per record. */
export async function feedFollowedAcrossInstances(databaseUrl: string, instances: number): Promise<void> {
  const env = environment(databaseUrl);
  const domain = `feed${Math.random().toString(36).slice(2, 10)}`;
  const made = await runCli(['workspace', 'create', '--domain', domain, '--name', 'Feed', '--admin-email', 'feed@example.com'], env);
  expect(made.code, made.stderr).toBe(0);
  const { apiKey } = JSON.parse(made.stdout) as { apiKey: string };
  const servers: RunningServer[] = [];
  try {
    // Started together, each given time to start on a loaded machine; one that fails is stopped by startServer.
    const started = await Promise.allSettled(Array.from({ length: instances }, () => startServer(env, { startTimeoutMs: 90_000 })));
    for (const result of started) if (result.status === 'fulfilled') servers.push(result.value);
    expect(started.filter((result) => result.status === 'rejected')).toEqual([]);
    const headers = { host: `${domain}.localhost`, authorization: `Bearer ${apiKey}`, accept: 'application/json' };
    const call = (n: number, method: string, path: string, body?: unknown) =>
      request(servers[n % servers.length].port, method, path, body === undefined ? headers : { ...headers, 'content-type': 'application/json' }, body === undefined ? undefined : JSON.stringify(body));

    // Each writer opens timers (a new one stops the writer's running one: two events in one transaction)
    // and records closed activities; what was acknowledged is what the reader must see.
    const acknowledged = new Map<string, string>();
    let writing = true;
    const writer = async (w: number) => {
      let n = 0;
      while (writing) {
        n++;
        const timer = n % 3 === 0;
        const day = String(1 + (n % 28)).padStart(2, '0');
        const body = timer
          ? { name: `w${w} timer ${n}`, startedAt: `2026-03-${day}T${String(w).padStart(2, '0')}:00:00Z`, pending: true }
          : { name: `w${w} entry ${n}`, startedAt: `2026-04-${day}T09:00:00Z`, endedAt: `2026-04-${day}T10:00:00Z` };
        const res = await call(w + n, 'POST', '/api/activities', body);
        expect([200, 409, 422, 423]).toContain(res.status);
        if (res.status === 200) acknowledged.set(res.body.id, timer ? 'timer.started' : 'activity.created');
      }
    };

    const seen: FeedEvent[] = [];
    let cursor: string | undefined;
    let reads = 0;
    const readPage = async () => {
      const query = new URLSearchParams({ limit: '50' });
      if (cursor !== undefined) query.set('after', cursor);
      const res = await call(reads++, 'GET', `/api/changes?${query.toString()}`);
      expect(res.status).toBe(200);
      seen.push(...(res.body.events as FeedEvent[]));
      cursor = res.body.cursor as string;
      return res.body.hasMore as boolean;
    };
    const reader = async () => {
      while (writing) await readPage();
    };

    await Promise.all([
      ...Array.from({ length: WRITERS }, (_, w) => writer(w)),
      reader(),
      new Promise((resolve) => setTimeout(resolve, WRITE_MS)).then(() => {
        writing = false;
      }),
    ]);
    while (await readPage());

    const ids = seen.map((event) => event.id);
    expect(new Set(ids).size).toBe(ids.length); // never twice
    const typeOf = new Map<string, string[]>();
    for (const event of seen) typeOf.set(event.data.id, [...(typeOf.get(event.data.id) ?? []), event.type]);
    const missed = [...acknowledged].filter(([id, type]) => typeOf.get(id)?.[0] !== type);
    expect(missed).toEqual([]); // never missed: each acknowledged write's own event came first for its record
    for (const types of typeOf.values()) {
      // A timer is started once and stopped at most once, in that order; a closed entry is created once.
      expect([['timer.started'], ['timer.started', 'timer.stopped'], ['activity.created']]).toContainEqual(types);
    }
    expect(acknowledged.size).toBeGreaterThan(50);
    expect(reads).toBeGreaterThan(5);
  } finally {
    for (const server of servers) server.child.kill('SIGTERM');
    await Promise.all(servers.map((server) => server.exited));
  }
}
