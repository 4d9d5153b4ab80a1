import SqliteDatabase from 'better-sqlite3';
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { make, unique } from '../support/factories/index.js';
import { as, ok, TEST_SECRET_KEY, type Harness, type TestUser, type TestWorkspace } from '../support/harness.js';
import { request, runCli, startServer, type RunningServer } from '../support/processes.js';
import { tempSqliteFile } from '../support/sqlite-files.js';
import { buildApp, loadConfig } from '../support/src.js';
import { testStores } from '../support/stores.js';

/*
 * docs/operations.md "Moving from SQLite to PostgreSQL": `timetrack copy` copies every table of a
 * store into a new, empty one and checks each table's rows and checksum. A server on the copy answers
 * what a server on the source answered. Not per store: the SQLite-to-SQLite copy runs always, the copy
 * to PostgreSQL (the one that matters) when TEST_DATABASE_URL is set.
 */

const BASE_DOMAIN = 'timetrack.test';
const serverEnv = (url: string) => ({ DATABASE_URL: url, BOOTSTRAP: 'false', BASE_DOMAIN, SECRET_KEY: TEST_SECRET_KEY });

/** The app on a SQLite file, as the harness builds it, for the factories to make a world in. */
async function fileHarness(url: string): Promise<Harness> {
  const config = {
    ...loadConfig({ BASE_DOMAIN, SECRET_KEY: TEST_SECRET_KEY }),
    databaseUrl: url,
    logLevel: 'warn',
    rateLimit: { perAddressPerMinute: 1_000_000, perTokenPerMinute: 1_000_000 },
  };
  const app = await buildApp({ config, logStream: fs.createWriteStream('/dev/null') });
  const call: Harness['call'] = async (method, path, options = {}) => {
    const headers: Record<string, string> = { accept: 'application/json', ...options.headers };
    if (options.host !== undefined) headers.host = options.host;
    if (options.token) headers.authorization = `Bearer ${options.token}`;
    if (options.body !== undefined) headers['content-type'] = 'application/json';
    const response = await app.inject({ method: method as 'GET', url: path, headers, payload: options.body === undefined ? undefined : JSON.stringify(options.body) });
    return { status: response.statusCode, headers: response.headers, body: response.body === '' ? undefined : JSON.parse(response.body), text: response.body };
  };
  return { store: 'sqlite', app, config, logs: [], call } as unknown as Harness;
}

interface World {
  ws: TestWorkspace;
  ada: TestUser;
  reportId: string;
}

/** A varied workspace: users (one archived), a client, a project with members, a task, tags, activities with tags, rates, a saved report, a webhook, a lock and a request. */
async function buildWorld(url: string): Promise<World> {
  const h = await fileHarness(url);
  try {
    const ws = await make.workspace(h, { domain: unique('moving') });
    // Made first, so that every write after it also writes a delivery.
    await ok(as(h, ws).post('/api/webhooks', { url: 'https://hooks.example.com/moving', events: ['*'] }));
    const ada = await make.user(h, ws, { name: 'Ada' });
    await make.user(h, ws, { name: 'Gone', archived: true });
    const client = await make.client(h, ws, { name: 'Client Ümlaut' });
    await make.client(h, ws, { archived: true });
    const project = await make.project(h, ws, { name: 'Apollo', clientId: client.id, billable: true });
    const member = await make.member(h, ws, { project, user: ada });
    const task = await make.task(h, ws, { project, name: 'Design', billable: false });
    const tag = await make.tag(h, ws, { name: 'urgent' });
    const other = await make.tag(h, ws, { name: 'later' });
    await make.activity(h, ws, { owner: ada, project, taskId: task.id, tagIds: [tag.id, other.id], name: 'Tagged “work”' });
    await make.activity(h, ws, { owner: ada, project, billable: false, startedAt: '2026-07-06T08:00:00Z', endedAt: '2026-07-06T17:30:00.250Z' });
    await make.activity(h, ws, { owner: ws.admin, name: 'Admin work', startedAt: '2026-03-02T10:00:00+02:00', endedAt: '2026-03-02T11:00:00+02:00' });
    await make.timer(h, ws, { owner: ws.admin, startedAt: '2026-07-07T09:00:00Z' });
    await make.revenueRate(h, ws, { project, member, value: 92.5 });
    await make.costRate(h, ws, { user: ada, value: 40 });
    const saved = await make.report(h, ws, { dimensions: ['project', 'tag'], metrics: ['time', 'revenue'] });
    await make.lock(h, ws, { user: ada, year: 2026, week: 10 });
    await make.request(h, ws, { kind: 'timesheetUnlock', by: ada, year: 2026, week: 10 });
    await h.app.store.durable();
    return { ws, ada, reportId: saved.id as string };
  } finally {
    await h.app.close();
  }
}

/** What several listings answer, as the workspace's administrator and as Ada. */
async function listings(port: number, world: World): Promise<Record<string, unknown>> {
  const answers: Record<string, unknown> = {};
  const everything = 'from=2020-01-01T00:00:00Z&to=2030-01-01T00:00:00Z';
  const reads: Array<[TestUser, string]> = [
    [world.ws.admin, `/api/activities?${everything}`],
    [world.ada, `/api/activities?${everything}`],
    [world.ws.admin, '/api/projects'],
    [world.ws.admin, '/api/users'],
    [world.ws.admin, '/api/clients'],
    [world.ws.admin, '/api/tags'],
    [world.ws.admin, '/api/timesheets/locks'],
    [world.ws.admin, '/api/requests'],
    [world.ws.admin, `/api/reports/${world.reportId}/run?timeZone=UTC`],
    [world.ada, '/api/auth'],
  ];
  for (const [user, path] of reads) {
    const res = await request(port, 'GET', path, { host: `${world.ws.domain}.${BASE_DOMAIN}`, authorization: `Bearer ${user.token}` });
    expect(res.status, `${path} ${JSON.stringify(res.body)}`).toBe(200);
    answers[`${user.email} ${path}`] = res.body;
  }
  return answers;
}

async function answersOn(url: string, world: World): Promise<Record<string, unknown>> {
  const server = await startServer(serverEnv(url));
  try {
    return await listings(server.port, world);
  } finally {
    server.child.kill('SIGTERM');
    await server.exited;
  }
}

const sha256 = (file: string) => createHash('sha256').update(fs.readFileSync(file)).digest('hex');

const copy = (from: string, to: string) => runCli(['copy', '--from', from, '--to', to], {});

/** The rows the world writes in tables whose count does not depend on the service's timing. */
const EXPECTED_ROWS = {
  organizations: 1,
  users: 3,
  clients: 2,
  projects: 1,
  tasks: 1,
  tags: 2,
  activities: 4,
  activity_tags: 2,
  revenue_rates: 1,
  cost_rates: 1,
  reports: 1,
  webhooks: 1,
  timesheet_locks: 1,
  requests: 1,
};

describe('timetrack copy', { timeout: 240_000 }, () => {
  const sourceFile = tempSqliteFile();
  const source = `sqlite:${sourceFile}`;
  let world: World;
  let sourceAnswers: Record<string, unknown>;
  const servers: RunningServer[] = [];

  beforeAll(async () => {
    world = await buildWorld(source);
    sourceAnswers = await answersOn(source, world);
  });
  afterAll(() => {
    for (const server of servers) server.child.kill('SIGKILL');
  });

  it('copies every table of a SQLite store into a new SQLite store, which answers every listing as the source did, and leaves the source as it was', async () => {
    const before = sha256(sourceFile);
    const target = `sqlite:${tempSqliteFile()}`;
    const result = await copy(source, target);
    expect(result.code, result.stderr).toBe(0);
    const report = JSON.parse(result.stdout) as { tables: Record<string, { rows: number; checksum: string }>; ok: boolean };
    expect(report.ok).toBe(true);
    for (const [table, rows] of Object.entries(EXPECTED_ROWS)) expect(report.tables[table]?.rows, table).toBe(rows);
    // The feed's events and the webhook's deliveries, numbered in the source, are copied as they are.
    expect(report.tables.change_events.rows).toBeGreaterThan(10);
    expect(report.tables.webhook_deliveries.rows).toBeGreaterThan(0);
    expect(report.tables).not.toHaveProperty('timetrack_migrations');
    for (const { checksum } of Object.values(report.tables)) expect(checksum).toMatch(/^[0-9a-f]{64}$/);
    expect(sha256(sourceFile)).toBe(before);

    expect(await answersOn(target, world)).toEqual(sourceAnswers);
  });

  it('refuses a target that holds rows, naming the table, and leaves it as it was', async () => {
    const target = `sqlite:${tempSqliteFile()}`;
    expect((await copy(source, target)).code).toBe(0);
    const again = await copy(source, target);
    expect(again.code).toBe(1);
    expect(again.stdout).toBe('');
    expect(again.stderr).toMatch(/timetrack: the target is not empty \(table \w+ holds rows\): copy only into a new, empty store/);
    expect(await answersOn(target, world)).toEqual(sourceAnswers);
  });

  it('refuses a missing or in-memory source, an in-memory target and a source that is its own target, with exit 1', async () => {
    const fresh = `sqlite:${tempSqliteFile()}`;
    const cases: Array<[string, string, RegExp]> = [
      [`sqlite:${tempSqliteFile()}`, fresh, /--from: no SQLite store at/],
      ['sqlite::memory:', fresh, /--from cannot be an in-memory store/],
      [source, 'sqlite::memory:', /--to cannot be an in-memory store/],
      [source, source, /--from and --to name the same store/],
      [source, 'mysql://localhost/db', /--to must start with sqlite: or postgres:\/\//],
    ];
    for (const [from, to, message] of cases) {
      const result = await copy(from, to);
      expect(result.code, `${from} → ${to}`).toBe(1);
      expect(result.stderr).toMatch(message);
    }
    expect(fs.existsSync(fresh.slice('sqlite:'.length))).toBe(false);
  });

  const postgres = testStores.find((store) => store.name === 'postgres');
  describe.runIf(postgres !== undefined)('to PostgreSQL', () => {
    it('copies every table of a SQLite store into a new PostgreSQL schema with the same rows and checksums, which answers every listing as the source did', async () => {
      const alongside = await copy(source, `sqlite:${tempSqliteFile()}`);
      expect(alongside.code, alongside.stderr).toBe(0);
      const target = postgres!.freshUrl();
      const result = await copy(source, target);
      expect(result.code, result.stderr).toBe(0);
      const copied = JSON.parse(result.stdout);
      // Booleans (0/1 in SQLite, true/false in PostgreSQL) and all else normalized alike: the SQLite copy's very checksums.
      expect(copied).toEqual(JSON.parse(alongside.stdout));

      expect(await answersOn(target, world)).toEqual(sourceAnswers);

      // The numbering triggers are on again: a write on the copy takes the feed's next position.
      const schema = new URL(target).searchParams.get('schema')!;
      const base = new URL(target);
      base.searchParams.delete('schema');
      const client = new pg.Client({ connectionString: base.toString(), options: `-c search_path=${schema}` });
      await client.connect();
      try {
        // int8 arrives as a number (src/db/database.ts sets pg's parser for the whole process).
        const top = async () => (await client.query<{ top: number; unnumbered: number }>('select max(position) as top, count(*) filter (where position is null) as unnumbered from change_events')).rows[0];
        expect(await top()).toEqual({ top: copied.tables.change_events.rows, unnumbered: 0 });
        const server = await startServer(serverEnv(target));
        servers.push(server);
        const res = await request(server.port, 'POST', '/api/tags', { host: `${world.ws.domain}.${BASE_DOMAIN}`, authorization: `Bearer ${world.ws.admin.token}`, 'content-type': 'application/json' }, JSON.stringify({ name: 'after the move' }));
        expect(res.status).toBe(200);
        server.child.kill('SIGTERM');
        await server.exited;
        expect(await top()).toEqual({ top: copied.tables.change_events.rows + 1, unnumbered: 0 });
      } finally {
        await client.end();
      }

      const again = await copy(source, target);
      expect(again.code).toBe(1);
      expect(again.stderr).toMatch(/the target is not empty \(table \w+ holds rows\)/);
    });

    it('a table whose rows the target does not hold exactly as the source does fails the check, naming it, and the target keeps no row', async () => {
      // A SQLite boolean column may hold any integer: 2 is no PostgreSQL boolean, so the copied row differs.
      const oddFile = tempSqliteFile();
      const reader = new SqliteDatabase(sourceFile, { readonly: true });
      await reader.backup(oddFile);
      reader.close();
      const odd = new SqliteDatabase(oddFile);
      expect(odd.prepare('update users set archived = 2 where archived = 1').run().changes).toBe(1);
      odd.close();

      const target = postgres!.freshUrl();
      const result = await copy(`sqlite:${oddFile}`, target);
      expect(result.code).toBe(1);
      expect(result.stdout).toBe('');
      expect(result.stderr).toMatch(/timetrack: table users differs after the copy \(source: 3 rows, [0-9a-f]{64}; target: 3 rows, [0-9a-f]{64}\): nothing was copied/);
      // Rolled back: the same target takes the sound source.
      const sound = await copy(source, target);
      expect(sound.code, sound.stderr).toBe(0);
    });
  });
});
