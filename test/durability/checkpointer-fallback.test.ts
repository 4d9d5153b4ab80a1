import { sql } from 'kysely';
import fs from 'node:fs';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { tempSqliteFile } from '../support/sqlite-files.js';
import { openStore } from '../support/src.js';

// A machine where no worker thread can be started.
vi.mock('node:worker_threads', () => ({
  Worker: class {
    constructor() {
      throw new Error('no threads here');
    }
  },
}));

describe('Checkpoints of a SQLite file without the checkpointer thread', () => {
  afterEach(() => vi.restoreAllMocks());

  it('a store whose checkpointer cannot start still opens, writes, and checkpoints on its own, with a warning', async () => {
    const warn = vi.spyOn(process, 'emitWarning').mockImplementation(() => undefined);
    const file = tempSqliteFile();
    const store = openStore(`sqlite:${file}`);
    try {
      expect(warn).toHaveBeenCalledWith(expect.stringContaining('no threads here'));
      expect((await sql<{ wal_autocheckpoint: number }>`pragma wal_autocheckpoint`.execute(store.db)).rows).toEqual([{ wal_autocheckpoint: 1000 }]);
      await sql`create table t (x integer)`.execute(store.db);
      await sql`insert into t values (1)`.execute(store.db);
      await store.durable();
      expect((await sql<{ n: number }>`select count(*) as n from t`.execute(store.db)).rows).toEqual([{ n: 1 }]);
    } finally {
      await store.close();
    }
    expect(fs.existsSync(`${file}-wal`)).toBe(false);
  });
});
