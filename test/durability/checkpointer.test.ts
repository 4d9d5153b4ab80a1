import { sql } from 'kysely';
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT } from '../support/processes.js';
import { tempSqliteFile, until } from '../support/sqlite-files.js';
import { BACKSTOP_CHECKPOINT_FRAMES, openStore } from '../support/src.js';

/*
 * A SQLite file's WAL is copied into the database file by a worker thread (src/db/checkpointer.ts),
 * never by a commit on the event loop.
 */

describe('Checkpoints of a SQLite file', () => {
  it('the worker copies committed frames into the database file before SQLite\'s own checkpoint would', async () => {
    const file = tempSqliteFile();
    const store = openStore(`sqlite:${file}`);
    try {
      await sql`create table t (x text)`.execute(store.db);
      const before = fs.statSync(file).size;
      // About 60 WAL frames: far below the backstop at which the store's connection checkpoints itself.
      await store.db.transaction().execute(async (trx) => {
        for (let i = 0; i < 200; i++) await sql`insert into t values (${'x'.repeat(1000)})`.execute(trx);
      });
      await until(() => fs.statSync(file).size >= before + 200 * 1000);
      expect((await sql<{ n: number }>`select count(*) as n from t`.execute(store.db)).rows).toEqual([{ n: 200 }]);
    } finally {
      await store.close();
    }
  });

  it('under steady writes the WAL starts over instead of growing without end', async () => {
    const file = tempSqliteFile();
    const store = openStore(`sqlite:${file}`);
    try {
      expect((await sql<{ wal_autocheckpoint: number }>`pragma wal_autocheckpoint`.execute(store.db)).rows).toEqual([
        { wal_autocheckpoint: BACKSTOP_CHECKPOINT_FRAMES },
      ]);
      await sql`create table t (x text)`.execute(store.db);
      // Ten pages a transaction, back to back, four times the backstop's frames in all.
      const pagesPerTransaction = 10;
      for (let i = 0; i < (4 * BACKSTOP_CHECKPOINT_FRAMES) / pagesPerTransaction; i++) {
        await store.db.transaction().execute(async (trx) => {
          for (let page = 0; page < pagesPerTransaction; page++) await sql`insert into t values (${'x'.repeat(3000)})`.execute(trx);
        });
      }
      const frame = 4096 + 24;
      expect(fs.statSync(`${file}-wal`).size).toBeLessThan(2 * BACKSTOP_CHECKPOINT_FRAMES * frame);
    } finally {
      await store.close();
    }
  });

  it('closing the store checkpoints everything: the WAL is gone and another connection reads every row', async () => {
    const file = tempSqliteFile();
    const store = openStore(`sqlite:${file}`);
    await sql`create table t (x integer)`.execute(store.db);
    for (let i = 0; i < 50; i++) await sql`insert into t values (${i})`.execute(store.db);
    await store.close();
    expect(fs.existsSync(`${file}-wal`)).toBe(false);

    const reopened = openStore(`sqlite:${file}`);
    try {
      expect((await sql<{ n: number }>`select count(*) as n from t`.execute(reopened.db)).rows).toEqual([{ n: 50 }]);
    } finally {
      await reopened.close();
    }
  });

  it('a process that closes its store exits by itself: the checkpointer holds it open only until its last checkpoint', async () => {
    const file = tempSqliteFile();
    const finished = await new Promise<{ code: number | null; stdout: string }>((resolve) => {
      execFile(process.execPath, ['--import', 'tsx', path.join(ROOT, 'test/support/open-write-close.ts'), file], { cwd: ROOT }, (error, stdout) =>
        resolve({ code: error ? (error.code as number) : 0, stdout }),
      );
    });
    expect(finished).toEqual({ code: 0, stdout: 'closed\n' });
    expect(fs.existsSync(`${file}-wal`)).toBe(false);
  });

  it('an in-memory store has no WAL and keeps SQLite\'s own setting', async () => {
    const store = openStore('sqlite::memory:');
    try {
      expect((await sql<{ wal_autocheckpoint: number }>`pragma wal_autocheckpoint`.execute(store.db)).rows).toEqual([{ wal_autocheckpoint: 1000 }]);
    } finally {
      await store.close();
    }
  });
});
