import SqliteDatabase from 'better-sqlite3';
import { sql } from 'kysely';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { request, runCli, startServer, type RunningServer } from '../support/processes.js';
import { tempSqliteFile } from '../support/sqlite-files.js';
import { loadMigrations, openStore } from '../support/src.js';

/*
 * docs/operations.md "Backups and restore": `timetrack backup` copies a SQLite store while its server
 * serves, and `timetrack restore` puts a copy in place of a stopped, empty store. These commands are
 * SQLite's; on PostgreSQL they refuse and point at pg_dump and pg_restore, so the suite is not per store.
 */

/** How many writes the load sends at most, and for how long: bounds, not expectations. */
const MAX_WRITES = 3_000;
const MAX_LOAD_MS = 60_000;
/** Writes acknowledged before the backup starts, at least (so that it has something to hold). */
const WRITES_BEFORE_BACKUP = 30;

const sqliteUrl = (file: string) => `sqlite:${file}`;

async function createWorkspace(url: string, domain: string): Promise<{ apiKey: string }> {
  const created = await runCli(['workspace', 'create', '--domain', domain, '--name', 'Backed up', '--admin-email', `admin@${domain}.example.com`], {
    DATABASE_URL: url,
  });
  expect(created.code, created.stderr).toBe(0);
  return JSON.parse(created.stdout) as { apiKey: string };
}

const stop = async (server: RunningServer) => {
  server.child.kill('SIGTERM');
  expect(await server.exited).toBe(0);
};

/** The last line of a command's output, parsed (the build may print before it on stderr, never on stdout). */
const printed = (stdout: string) => JSON.parse(stdout.trim().split('\n').at(-1)!) as Record<string, unknown>;

describe('timetrack backup and restore (SQLite)', { timeout: 180_000 }, () => {
  const servers: RunningServer[] = [];
  afterAll(() => {
    for (const server of servers) server.child.kill('SIGKILL');
  });

  it('a backup taken under a write load holds every write acknowledged before it began, and restores into a store a server runs on', async () => {
    const file = tempSqliteFile();
    const { apiKey } = await createWorkspace(sqliteUrl(file), 'backedup');
    // The load is one token from one address: its limits (docs/operations.md, Configuration) out of the way.
    const server = await startServer({ DATABASE_URL: sqliteUrl(file), BOOTSTRAP: 'false', RATE_LIMIT_PER_TOKEN: '1000000', RATE_LIMIT_PER_ADDRESS: '1000000' });
    servers.push(server);
    const headers = { host: 'backedup.localhost', authorization: `Bearer ${apiKey}` };

    // Two writers, each awaiting its answer before the next write: an id is recorded, with the time, once acknowledged.
    const acknowledged: { id: string; at: number }[] = [];
    let writing = true;
    const started = Date.now();
    let sent = 0;
    const writer = async () => {
      while (writing && sent < MAX_WRITES && Date.now() - started < MAX_LOAD_MS) {
        const n = sent++;
        const startedAt = new Date(Date.UTC(2026, 0, 1) + n * 60_000);
        const res = await request(server.port, 'POST', '/api/activities', { ...headers, 'content-type': 'application/json' }, JSON.stringify({
          name: `Write ${n}`,
          startedAt: startedAt.toISOString(),
          endedAt: new Date(startedAt.getTime() + 30_000).toISOString(),
        }));
        expect(res.status, JSON.stringify(res.body)).toBe(200);
        acknowledged.push({ id: res.body.id as string, at: Date.now() });
      }
    };
    const load = Promise.all([writer(), writer()]);
    for (let i = 0; i < 6_000 && acknowledged.length < WRITES_BEFORE_BACKUP && writing; i++) await new Promise((resolve) => setTimeout(resolve, 5));
    expect(acknowledged.length).toBeGreaterThanOrEqual(WRITES_BEFORE_BACKUP);

    const out = path.join(path.dirname(tempSqliteFile()), 'backup.db');
    const backup = await runCli(['backup', '--out', out], { DATABASE_URL: sqliteUrl(file) });
    writing = false;
    await load;
    expect(backup.code, backup.stderr).toBe(0);
    const report = printed(backup.stdout);
    expect(report).toEqual({
      file: out,
      bytes: fs.statSync(out).size,
      integrity: 'ok',
      migration: expect.stringMatching(/^\d{4}_/),
      startedAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
    });
    // The writes acknowledged before the backup's snapshot began (a write is acknowledged once committed).
    const before = acknowledged.filter((write) => write.at < Date.parse(report.startedAt as string)).map((write) => write.id);
    expect(before.length).toBeGreaterThanOrEqual(WRITES_BEFORE_BACKUP);
    // One self-contained file, nothing left beside it.
    expect(fs.readdirSync(path.dirname(out))).toEqual(['backup.db']);
    await stop(server);

    const restoredFile = tempSqliteFile();
    const restore = await runCli(['restore', '--from', out], { DATABASE_URL: sqliteUrl(restoredFile) });
    expect(restore.code, restore.stderr).toBe(0);
    expect(printed(restore.stdout)).toEqual({ file: restoredFile, from: out, bytes: fs.statSync(restoredFile).size, applied: [] });
    const check = new SqliteDatabase(restoredFile, { readonly: true });
    try {
      expect(check.pragma('integrity_check')).toEqual([{ integrity_check: 'ok' }]);
      const rows = check.prepare('select id from activities').pluck().all() as string[];
      // Every write acknowledged before the backup began is there; nothing that was never written is.
      expect(before.filter((id) => !rows.includes(id))).toEqual([]);
      expect(rows.length).toBeGreaterThanOrEqual(before.length);
      expect(rows.length).toBeLessThanOrEqual(sent);
    } finally {
      check.close();
    }

    const restored = await startServer({ DATABASE_URL: sqliteUrl(restoredFile), BOOTSTRAP: 'false' });
    servers.push(restored);
    for (const id of before) {
      const res = await request(restored.port, 'GET', `/api/activities/${id}`, headers);
      expect(res.status, id).toBe(200);
      expect(res.body.id).toBe(id);
    }
    const written = await request(restored.port, 'POST', '/api/activities', { ...headers, 'content-type': 'application/json' }, JSON.stringify({
      name: 'After the restore',
      startedAt: '2027-01-01T09:00:00Z',
      endedAt: '2027-01-01T10:00:00Z',
    }));
    expect(written.status).toBe(200);
    await stop(restored);
  });

  it('restore brings an older backup up to this version with the migrations it lacks', async () => {
    // A store as the version before the last migration left it: every migration but the last, recorded as migrateToLatest records them.
    const file = tempSqliteFile();
    const migrations = Object.entries(await loadMigrations());
    const [last] = migrations.at(-1)!;
    const store = openStore(sqliteUrl(file));
    await store.db.transaction().execute(async (trx) => {
      await sql`create table timetrack_migrations (name text primary key, applied_at text not null)`.execute(trx);
      for (const [name, migration] of migrations.slice(0, -1)) {
        await migration.up(trx as never, { dialect: 'sqlite' });
        await sql`insert into timetrack_migrations (name, applied_at) values (${name}, ${new Date().toISOString()})`.execute(trx);
      }
    });
    await store.close();
    const out = path.join(path.dirname(file), 'older.db');
    const backup = await runCli(['backup', '--out', out], { DATABASE_URL: sqliteUrl(file) });
    expect(backup.code, backup.stderr).toBe(0);
    expect(printed(backup.stdout).migration).toBe(migrations.at(-2)![0]);

    const restoredFile = tempSqliteFile();
    const restore = await runCli(['restore', '--from', out], { DATABASE_URL: sqliteUrl(restoredFile) });
    expect(restore.code, restore.stderr).toBe(0);
    expect(printed(restore.stdout).applied).toEqual([last]);
    const restored = new SqliteDatabase(restoredFile, { readonly: true });
    expect(restored.prepare('select name from timetrack_migrations order by name').pluck().all()).toEqual(migrations.map(([name]) => name));
    restored.close();
  });

  it('backup refuses an existing --out file, a PostgreSQL store (pointing at pg_dump) and an in-memory store, with exit 1', async () => {
    const file = tempSqliteFile();
    await createWorkspace(sqliteUrl(file), 'refusals');
    const existing = path.join(path.dirname(file), 'existing.db');
    fs.writeFileSync(existing, 'kept');
    const cases: Array<[string, string, RegExp]> = [
      [sqliteUrl(file), existing, /existing\.db exists: a backup never overwrites a file/],
      ['postgres://postgres@127.0.0.1:5432/test', path.join(path.dirname(file), 'pg.db'), /works on SQLite only: PostgreSQL is backed up with pg_dump --format=custom/],
      ['sqlite::memory:', path.join(path.dirname(file), 'memory.db'), /in-memory store/],
      [sqliteUrl(path.join(path.dirname(file), 'missing.db')), path.join(path.dirname(file), 'missing-copy.db'), /no SQLite store at/],
    ];
    for (const [url, out, message] of cases) {
      const result = await runCli(['backup', '--out', out], { DATABASE_URL: url });
      expect(result.code, url).toBe(1);
      expect(result.stdout).toBe('');
      expect(result.stderr).toMatch(message);
    }
    expect(fs.readFileSync(existing, 'utf8')).toBe('kept');
    expect(fs.readdirSync(path.dirname(file)).sort()).toEqual(['existing.db', 'timetrack.db']);
  });

  it('restore refuses a store that holds rows, a store a server has open, a file that is not a SQLite backup, and PostgreSQL, with exit 1', async () => {
    const source = tempSqliteFile();
    await createWorkspace(sqliteUrl(source), 'restoring');
    const backupFile = path.join(path.dirname(source), 'backup.db');
    expect((await runCli(['backup', '--out', backupFile], { DATABASE_URL: sqliteUrl(source) })).code).toBe(0);
    const notSqlite = path.join(path.dirname(source), 'notes.txt');
    fs.writeFileSync(notSqlite, 'not a database');
    const otherSqlite = path.join(path.dirname(source), 'other.db');
    new SqliteDatabase(otherSqlite).exec('create table t (a)');

    // A store with a workspace; an empty store a server runs on (BOOTSTRAP=false writes no row).
    const filled = tempSqliteFile();
    await createWorkspace(sqliteUrl(filled), 'filled');
    const served = tempSqliteFile();
    const server = await startServer({ DATABASE_URL: sqliteUrl(served), BOOTSTRAP: 'false' });
    servers.push(server);

    const cases: Array<[string, string, RegExp]> = [
      [sqliteUrl(filled), backupFile, /is not empty \(table \w+ holds rows\): restore only into a new or empty store/],
      [sqliteUrl(served), backupFile, /is in use by another process \(is a server running on it\?\)/],
      [sqliteUrl(tempSqliteFile()), notSqlite, /notes\.txt is not a SQLite database/],
      [sqliteUrl(tempSqliteFile()), otherSqlite, /other\.db is not a timetrack backup \(it has no timetrack_migrations table\)/],
      [sqliteUrl(tempSqliteFile()), path.join(path.dirname(source), 'absent.db'), /no file .*absent\.db/],
      ['postgres://postgres@127.0.0.1:5432/test', backupFile, /works on SQLite only: PostgreSQL is restored with pg_restore/],
    ];
    for (const [url, from, message] of cases) {
      const result = await runCli(['restore', '--from', from], { DATABASE_URL: url });
      expect(result.code, `${url} ${from}`).toBe(1);
      expect(result.stdout).toBe('');
      expect(result.stderr).toMatch(message);
    }
    // The refused targets are as they were: the served store still answers, the filled one keeps its workspace.
    expect((await request(server.port, 'GET', '/readyz', { host: 'anything' })).status).toBe(200);
    await stop(server);
    const check = new SqliteDatabase(filled, { readonly: true });
    expect(check.prepare('select count(*) from organizations').pluck().get()).toBe(1);
    check.close();

    // Once the server has stopped, the same empty store takes the backup.
    const restore = await runCli(['restore', '--from', backupFile], { DATABASE_URL: sqliteUrl(served) });
    expect(restore.code, restore.stderr).toBe(0);
    const restored = new SqliteDatabase(served, { readonly: true });
    expect(restored.prepare('select count(*) from organizations').pluck().get()).toBe(1);
    restored.close();
  });
});
