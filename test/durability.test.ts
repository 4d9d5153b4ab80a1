import SqliteDatabase from 'better-sqlite3';
import type { FastifyInstance } from 'fastify';
import { sql } from 'kysely';
import fs from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { buildApp } from '../src/app.js';
import { createWorkspace } from '../src/areas/workspace/index.js';
import { loadConfig } from '../src/config.js';
import { openStore } from '../src/db/database.js';
import { eachStore, sharedDatabaseUrl } from './support/processes.js';
import { tempSqliteFile, until } from './support/sqlite-files.js';

/*
 * Nothing acknowledged is ever lost: an answer to a write is sent only once the write is on disk.
 * SQLite files group-commit (src/db/wal-sync.ts): commits at synchronous=NORMAL, then one fsync of
 * the WAL off the event loop before the answers of every write it covers. PostgreSQL's COMMIT
 * itself waits for its log (synchronous_commit).
 */

/** A flush that, once held, records what it was asked to flush and finishes only when released. */
function heldFlush() {
  const held = { holding: false, calls: [] as { file: string; release: () => void }[] };
  const flush = (file: string) =>
    held.holding ? new Promise<void>((resolve) => held.calls.push({ file, release: resolve })) : Promise.resolve();
  return Object.assign(held, { flush });
}

const config = (databaseUrl: string) => ({ ...loadConfig({}), databaseUrl, baseDomain: 'timetrack.test', logLevel: 'warn' });

async function appWithWorkspace(databaseUrl: string, flush?: (file: string) => Promise<void>) {
  const store = openStore(databaseUrl, flush ? { flush } : {});
  const app = await buildApp({ config: config(databaseUrl), store, logStream: fs.createWriteStream('/dev/null') });
  const ws = await createWorkspace(app.db, { domain: `durable${Date.now().toString(36)}`, name: 'Durable', adminEmail: 'admin@example.com' });
  await app.store.durable();
  const send = (method: 'GET' | 'POST', url: string, body?: unknown) =>
    app.inject({
      method,
      url,
      headers: { host: `${ws.domain}.timetrack.test`, authorization: `Bearer ${ws.apiKey}`, ...(body ? { 'content-type': 'application/json' } : {}) },
      payload: body === undefined ? undefined : JSON.stringify(body),
    });
  return { app, ws, send };
}

const entry = { name: 'Durable work', startedAt: '2026-07-04T09:00:00Z', endedAt: '2026-07-04T10:00:00Z' };

describe('Durability of acknowledged writes, SQLite files (group commit)', () => {
  let app: FastifyInstance | undefined;
  let held = heldFlush();
  afterEach(async () => {
    held.holding = false;
    for (const call of held.calls.splice(0)) call.release();
    await app?.close();
    app = undefined;
  });

  it('answers a write only after a flush of the WAL that began after its commit', async () => {
    const file = tempSqliteFile();
    held = heldFlush();
    const built = await appWithWorkspace(`sqlite:${file}`, held.flush);
    app = built.app;
    held.holding = true;

    let answered = false;
    const response = built.send('POST', '/api/activities', entry).then((r) => ((answered = true), r));
    await until(() => held.calls.length === 1);
    expect(held.calls[0].file).toBe(`${file}-wal`);
    // The flush was asked for after the commit: another connection already reads the row.
    const reader = new SqliteDatabase(file, { readonly: true });
    try {
      expect(reader.prepare('select name from activities').pluck().all()).toEqual(['Durable work']);
    } finally {
      reader.close();
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(answered).toBe(false);

    held.calls[0].release();
    const res = await response;
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ name: 'Durable work', endedAt: '2026-07-04T10:00:00.000Z' });
  });

  it('a flush begun while a transaction is still uncommitted does not count that transaction as on disk', async () => {
    const file = tempSqliteFile();
    held = heldFlush();
    const store = openStore(`sqlite:${file}`, { flush: held.flush });
    try {
      await sql`create table t (x integer)`.execute(store.db);
      await store.durable();
      held.holding = true;
      // Another request's answer asks for a flush after this transaction wrote, before it commits.
      let earlier: Promise<void> | undefined;
      await store.db.transaction().execute(async (trx) => {
        await sql`insert into t values (1)`.execute(trx);
        earlier = store.durable();
      });
      const flushesBefore = held.calls.length;
      for (const call of held.calls) call.release();
      await earlier;

      let durable = false;
      const committed = store.durable().then(() => (durable = true));
      await until(() => held.calls.length === flushesBefore + 1);
      await new Promise((resolve) => setTimeout(resolve, 20));
      expect(durable).toBe(false);
      held.calls[flushesBefore].release();
      await committed;
    } finally {
      held.holding = false;
      for (const call of held.calls.splice(0)) call.release();
      await store.close();
    }
  });

  it('a transaction that only reads asks for no flush', async () => {
    held = heldFlush();
    const store = openStore(`sqlite:${tempSqliteFile()}`, { flush: held.flush });
    try {
      await sql`create table t (x integer)`.execute(store.db);
      await store.durable();
      held.holding = true;
      const rows = await store.db.transaction().execute((trx) => sql<{ n: number }>`select count(*) as n from t`.execute(trx));
      expect(rows.rows).toEqual([{ n: 0 }]);
      expect(store.writesPending).toBe(false);
      expect(held.calls).toEqual([]);
    } finally {
      held.holding = false;
      await store.close();
    }
  });

  it('answers reads at once while no write waits for the disk', async () => {
    held = heldFlush();
    const built = await appWithWorkspace(`sqlite:${tempSqliteFile()}`, held.flush);
    app = built.app;
    // The key's first use records lastUsedAt (a write); later reads within the minute write nothing.
    expect((await built.send('GET', '/api/activities')).statusCode).toBe(200);
    expect(built.app.store.writesPending).toBe(false);
    held.holding = true;

    const res = await built.send('GET', '/api/activities');
    expect([res.statusCode, res.body]).toEqual([200, '{}']);
    expect(held.calls).toEqual([]);
  });

  it('covers the writes of many concurrent requests with fewer flushes than writes, answering each', async () => {
    held = heldFlush();
    const built = await appWithWorkspace(`sqlite:${tempSqliteFile()}`, held.flush);
    app = built.app;
    held.holding = true;
    let flushes = 0;
    const releaser = setInterval(() => {
      for (const call of held.calls.splice(0)) {
        flushes++;
        call.release();
      }
    }, 20);
    try {
      const responses = await Promise.all(Array.from({ length: 20 }, (_, i) => built.send('POST', '/api/activities', { ...entry, name: `Work ${i}` })));
      expect(responses.map((r) => r.statusCode)).toEqual(Array(20).fill(200));
    } finally {
      clearInterval(releaser);
    }
    expect(flushes).toBeGreaterThan(0);
    expect(flushes).toBeLessThan(20);
    const listed = await built.send('GET', '/api/activities');
    expect(Object.keys(listed.json())).toHaveLength(20);
  });

  it('a file store runs in WAL mode at synchronous=NORMAL with group commit; ?synchronous=full flushes in every commit', async () => {
    const file = tempSqliteFile();
    for (const [url, level] of [
      [`sqlite:${file}`, 1],
      [`sqlite:${file}?synchronous=full`, 2],
    ] as const) {
      const store = openStore(url);
      try {
        expect((await sql<{ journal_mode: string }>`pragma journal_mode`.execute(store.db)).rows).toEqual([{ journal_mode: 'wal' }]);
        expect((await sql<{ synchronous: number }>`pragma synchronous`.execute(store.db)).rows).toEqual([{ synchronous: level }]);
        await sql`create table if not exists t (x integer)`.execute(store.db);
        await sql`insert into t values (1)`.execute(store.db);
        expect(store.writesPending).toBe(level === 1);
        await store.durable(); // the real fsync of the WAL and its folder
        expect(store.writesPending).toBe(false);
      } finally {
        await store.close();
      }
    }
  });
});

const postgres = eachStore.find((store) => store.name === 'postgres');

describe.runIf(postgres)('Durability of acknowledged writes, PostgreSQL', () => {
  it('commits wait for the log: synchronous_commit is on, and the store has nothing to flush after', async () => {
    const opened = openStore(sharedDatabaseUrl(postgres!));
    try {
      expect((await sql<{ synchronous_commit: string }>`show synchronous_commit`.execute(opened.db)).rows).toEqual([{ synchronous_commit: 'on' }]);
      await sql`create table if not exists durable_probe (x integer)`.execute(opened.db);
      await sql`insert into durable_probe values (1)`.execute(opened.db);
      expect(opened.writesPending).toBe(false);
    } finally {
      await opened.close();
    }
  });
});
