import { spawn } from 'node:child_process';
import path from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { feedFollowedAcrossInstances } from '../changes/concurrent-feed-scenario.js';
import { freshDatabase, startPgBouncer, type PgBouncer, type TestDatabase } from '../support/pgbouncer.js';
import { request, ROOT, runCli, startServer, type RunningServer } from '../support/processes.js';
import { LIST_PIECE, openStore, toDbBool } from '../support/src.js';
import { leaseOfAKilledInstanceExpires, threeInstancesDeliverEveryEventOnce } from '../webhooks/instances-scenarios.js';
import { startReceiver, type Receiver } from '../webhooks/receiver.js';

/*
 * The PostgreSQL store through a real PgBouncer in transaction pooling mode (docs/operations.md
 * "PgBouncer"): the scale-out scenarios once more, each on a database of its own reached through
 * PgBouncer with no schema parameter, as in production; a burst through a server pool of two
 * connections; and the clear refusals of a connection the store cannot work through.
 * PostgreSQL only: these run when TEST_DATABASE_URL is set.
 */

const serverUrl = process.env.TEST_DATABASE_URL;

/** Server connections PgBouncer keeps per database: fewer than one instance's own pool (10 + 8). */
const POOL_SIZE = 2;

/** Runs `node bin/start.js` that must refuse to start: its exit code and what it wrote on stderr. */
function failedStart(env: Record<string, string>): Promise<{ code: number | null; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [path.join(ROOT, 'bin/start.js')], {
      cwd: ROOT,
      env: { ...process.env, PORT: '0', HOST: '127.0.0.1', BOOTSTRAP: 'false', ...env },
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    let stderr = '';
    child.stderr.on('data', (chunk) => (stderr += chunk));
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`the server did not exit:\n${stderr}`));
    }, 60_000);
    child.on('exit', (code) => {
      clearTimeout(timer);
      resolve({ code, stderr });
    });
  });
}

describe.runIf(serverUrl !== undefined)('PostgreSQL through PgBouncer in transaction pooling mode', () => {
  let bouncer: PgBouncer;
  const databases: TestDatabase[] = [];
  const instances = { receiver: undefined as unknown as Receiver, servers: [] as RunningServer[] };

  beforeAll(async () => {
    bouncer = await startPgBouncer({ serverUrl: serverUrl!, poolMode: 'transaction', poolSize: POOL_SIZE });
    instances.receiver = await startReceiver();
  });
  afterAll(async () => {
    for (const server of instances.servers) server.child.kill('SIGKILL');
    await Promise.all(instances.servers.map((server) => server.exited));
    await instances.receiver?.close();
    await bouncer?.stop();
    for (const database of databases) await database.drop();
  });

  /** A database of its own, and its DATABASE_URL through PgBouncer. */
  async function throughPgBouncer(): Promise<{ name: string; url: string }> {
    const database = await freshDatabase(serverUrl!);
    databases.push(database);
    return { name: database.name, url: bouncer.url(database.name) };
  }

  /** The transactions PgBouncer passed on to the database: proof that the scenario went through it. */
  async function transactionsThrough(database: string): Promise<number> {
    const stats = await bouncer.show('SHOW STATS');
    return Number(stats.find((row) => row.database === database)?.total_xact_count ?? 0);
  }

  it('three instances deliver every webhook event exactly once, in order per webhook, through PgBouncer', async () => {
    const database = await throughPgBouncer();
    await threeInstancesDeliverEveryEventOnce(database.url, instances);
    expect(await transactionsThrough(database.name)).toBeGreaterThan(153);
  }, 180_000);

  it('a webhook delivery in flight on an instance killed with SIGKILL is delivered again through PgBouncer once its lease expires', async () => {
    const database = await throughPgBouncer();
    instances.receiver.answer = (_received, response) => void response.writeHead(204).end();
    await leaseOfAKilledInstanceExpires(database.url, instances);
    expect(await transactionsThrough(database.name)).toBeGreaterThan(0);
  }, 180_000);

  it('a reader following the change feed across three instances through PgBouncer sees every acknowledged write exactly once', async () => {
    const database = await throughPgBouncer();
    await feedFollowedAcrossInstances(database.url, 3);
    expect(await transactionsThrough(database.name)).toBeGreaterThan(50);
  }, 240_000);

  it('a burst of concurrent writes and long listings through two server connections answers every request exactly', async () => {
    const database = await throughPgBouncer();
    const domain = `pgb${Math.random().toString(36).slice(2, 10)}`;
    const made = await runCli(['workspace', 'create', '--domain', domain, '--name', 'Bouncer', '--admin-email', 'bouncer@example.com'], {
      DATABASE_URL: database.url,
    });
    expect(made.code, made.stderr).toBe(0);
    const { organizationId, userId, apiKey } = JSON.parse(made.stdout) as { organizationId: string; userId: string; apiKey: string };

    // More entries than two pieces of a long listing, written through PgBouncer too.
    const total = LIST_PIECE * 2 + 7;
    const start = Date.parse('2025-01-01T00:00:00Z');
    const ids: string[] = [];
    const store = openStore(database.url);
    try {
      for (let done = 0; done < total; ) {
        const rows = Array.from({ length: Math.min(500, total - done) }, (_, i) => {
          const n = done + i;
          const startedAt = new Date(start + n * 60_000).toISOString();
          const id = `${String(n).padStart(8, '0')}-0000-7000-8000-000000000000`;
          ids.push(id);
          return {
            id, organization_id: organizationId, user_id: userId, project_id: null, name: `Entry ${n}`, billable: toDbBool(false),
            started_at: startedAt, ended_at: new Date(Date.parse(startedAt) + 30_000).toISOString(), created_at: startedAt, updated_at: startedAt,
          };
        });
        await store.db.insertInto('activities').values(rows).execute();
        done += rows.length;
      }
    } finally {
      await store.close();
    }

    // Four long listings of one token at once: more than the server connections PgBouncer has for them.
    const LISTINGS = 4;
    const bounds = { LISTING_CONCURRENCY_PER_TOKEN: `${LISTINGS}`, LISTING_CONCURRENCY_PER_WORKSPACE: `${LISTINGS}`, LONG_READS_PER_WORKSPACE: `${LISTINGS}` };
    const limits = { RATE_LIMIT_PER_ADDRESS: '1000000000', RATE_LIMIT_PER_TOKEN: '1000000000' };
    const server = await startServer(
      { DATABASE_URL: database.url, BASE_DOMAIN: 'localhost', BOOTSTRAP: 'false', LOG_LEVEL: 'info', ...limits, ...bounds },
      { startTimeoutMs: 90_000 },
    );
    instances.servers.push(server);
    const headers = { host: `${domain}.localhost`, authorization: `Bearer ${apiKey}`, accept: 'application/json' };
    const call = (method: string, urlPath: string, body?: unknown) =>
      request(server.port, method, `/api${urlPath}`, body === undefined ? headers : { ...headers, 'content-type': 'application/json' }, body === undefined ? undefined : JSON.stringify(body));
    const longListing = '/activities?from=2024-12-31T00:00:00Z&to=2026-01-01T00:00:00Z';

    const quiet = await call('GET', longListing);
    expect(quiet.status).toBe(200);
    expect(Object.keys(quiet.body)).toEqual(ids);
    expect(Object.values(quiet.body).map((entry: any) => entry.name)).toEqual(ids.map((_, n) => `Entry ${n}`));
    const sample = await call('GET', `/activities/${ids[LIST_PIECE + 3]}`);
    expect(sample.status).toBe(200);
    expect(quiet.body[ids[LIST_PIECE + 3]]).toEqual(sample.body);

    // The long listings (each holds a server connection for its snapshot) and sixty writes at once.
    const WRITES = 60;
    const [listings, writes] = await Promise.all([
      Promise.all(Array.from({ length: LISTINGS }, () => call('GET', longListing))),
      Promise.all(
        Array.from({ length: WRITES }, (_, n) => {
          const day = String(1 + (n % 28)).padStart(2, '0');
          const hour = String(Math.floor(n / 28)).padStart(2, '0');
          return call('POST', '/activities', { name: `Burst ${n}`, startedAt: `2026-02-${day}T${hour}:00:00Z`, endedAt: `2026-02-${day}T${hour}:30:00Z` });
        }),
      ),
    ]);
    for (const listing of listings) {
      expect(listing.status).toBe(200);
      expect(listing.body).toEqual(quiet.body);
    }
    expect(writes.map((write) => [write.status, write.body.name])).toEqual(Array.from({ length: WRITES }, (_, n) => [200, `Burst ${n}`]));
    const written = await call('GET', '/activities?from=2026-02-01T00:00:00Z&to=2026-03-01T00:00:00Z');
    expect(written.status).toBe(200);
    const byId = Object.fromEntries(writes.map((write) => [write.body.id, write.body]));
    expect(written.body).toEqual(byId);

    const pools = await bouncer.show('SHOW POOLS');
    const pool = pools.find((row) => row.database === database.name)!;
    const serverConnections = ['sv_active', 'sv_idle', 'sv_used', 'sv_tested', 'sv_login'].reduce((sum, column) => sum + Number(pool[column]), 0);
    expect(serverConnections).toBeLessThanOrEqual(POOL_SIZE);
    expect(await transactionsThrough(database.name)).toBeGreaterThan(WRITES);
  }, 180_000);

  it('refuses to start through PgBouncer in statement pooling mode, and names the mode it needs', async () => {
    const statementMode = await startPgBouncer({ serverUrl: serverUrl!, poolMode: 'statement' });
    try {
      const database = await throughPgBouncer();
      const started = await failedStart({ DATABASE_URL: statementMode.url(database.name) });
      expect(started.code).toBe(1);
      expect(started.stderr).toContain(
        'timetrack: could not start: DATABASE_URL reaches PostgreSQL through PgBouncer in statement pooling mode, which runs no transaction: ' +
          'timetrack needs pool_mode = transaction (or session) (docs/operations.md, "PgBouncer")\n',
      );
    } finally {
      await statementMode.stop();
    }
  }, 90_000);

  it('refuses to start with a schema parameter PgBouncer refuses to pass on, and says what to do instead', async () => {
    const database = await throughPgBouncer();
    const started = await failedStart({ DATABASE_URL: `${bouncer.url(database.name)}?schema=elsewhere` });
    expect(started.code).toBe(1);
    expect(started.stderr).toContain(
      'timetrack: could not start: DATABASE_URL names the schema "elsewhere", which is set with a startup option that PgBouncer refuses: ' +
        'through PgBouncer, leave the schema parameter out and give the database (or its user) the search path (docs/operations.md, "PgBouncer")\n',
    );
  }, 90_000);

  it('refuses to start with a schema parameter PgBouncer drops (ignore_startup_parameters = options), and migrates nothing into the schema its connections ran in', async () => {
    const ignoring = await startPgBouncer({ serverUrl: serverUrl!, ignoreStartupParameters: ['options'] });
    try {
      const database = await throughPgBouncer();
      const started = await failedStart({ DATABASE_URL: `${ignoring.url(database.name)}?schema=elsewhere` });
      expect(started.code).toBe(1);
      expect(started.stderr).toContain(
        'timetrack: could not start: DATABASE_URL names the schema "elsewhere", but its connections run in "public": ' +
          'a pooler dropped the startup option that sets the search path (PgBouncer with ignore_startup_parameters = options). ' +
          'Through PgBouncer, leave the schema parameter out and give the database (or its user) the search path (docs/operations.md, "PgBouncer")\n',
      );
      // Nothing was migrated into the schema the connections ran in.
      const direct = new URL(serverUrl!);
      direct.pathname = `/${database.name}`;
      const client = new pg.Client({ connectionString: direct.toString() });
      await client.connect();
      try {
        const { rows } = await client.query("select count(*)::int as n from information_schema.tables where table_schema = 'public'");
        expect(rows).toEqual([{ n: 0 }]);
      } finally {
        await client.end();
      }
    } finally {
      await ignoring.stop();
    }
  }, 90_000);
});
