import { describe, expect, it } from 'vitest';
import { eachStore, request, runCli, sharedDatabaseUrl, startServer, type RunningServer } from '../support/processes.js';

/*
 * The feed under concurrent writers, through real server processes on one database: three instances
 * on PostgreSQL (where transactions commit in parallel and positions could otherwise become visible
 * out of order), one on SQLite (one writer per file). A reader follows the cursor, from instance to
 * instance, while the writers run, and must see every acknowledged write exactly once.
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
    LOG_LEVEL: 'warn',
    RATE_LIMIT_PER_ADDRESS: '1000000000',
    RATE_LIMIT_PER_TOKEN: '1000000000',
  };
}

for (const store of eachStore) {
  describe(`change feed under concurrent writers [${store.name}]`, () => {
    it('a reader following the cursor across instances sees every acknowledged write exactly once, in commit order per record', async () => {
      const databaseUrl = sharedDatabaseUrl(store);
      const env = environment(databaseUrl);
      const domain = `feed${Math.random().toString(36).slice(2, 10)}`;
      const made = await runCli(['workspace', 'create', '--domain', domain, '--name', 'Feed', '--admin-email', 'feed@example.com'], env);
      expect(made.code, made.stderr).toBe(0);
      const { apiKey } = JSON.parse(made.stdout) as { apiKey: string };
      const instances = store.name === 'postgres' ? 3 : 1;
      const servers: RunningServer[] = [];
      try {
        for (let i = 0; i < instances; i++) servers.push(await startServer(env));
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
    }, 120_000);
  });
}
