import SqliteDatabase from 'better-sqlite3';
import { sql, type Kysely } from 'kysely';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { tempSqliteFile } from '../support/sqlite-files.js';
import { fixedStatement, openStore, type Store } from '../support/src.js';

/*
 * SQLite commits the transactions of one turn of the event loop together (src/db/batched-transactions.ts):
 * each stays atomic as a savepoint, and nothing of the batch counts as done before its one COMMIT.
 */

let store: Store;
let file: string;
let db: Kysely<any>;
const rowsSeenByAnotherConnection = () => {
  const reader = new SqliteDatabase(file, { readonly: true });
  try {
    return reader.prepare('select v from t order by v').pluck().all();
  } finally {
    reader.close();
  }
};
const rows = async () => (await sql<{ v: string }>`select v from t order by v`.execute(db)).rows.map((r) => r.v);
const SELECT_ROWS = fixedStatement<{ v: string }>('select v from t order by v');
const INSERT_ROW = fixedStatement('insert into t (v) values (?)');
const fixedRows = async () => (await SELECT_ROWS(store.db, [])).map((r) => r.v);
const insert = (v: string) => db.transaction().execute(async (trx) => void (await sql`insert into t (v) values (${v})`.execute(trx)));

beforeEach(async () => {
  file = tempSqliteFile();
  store = openStore(`sqlite:${file}`);
  db = store.db as unknown as Kysely<any>;
  await sql`create table t (v text primary key)`.execute(db);
  // A whole-transaction rollback on demand, as an I/O error or a full disk would make one.
  await sql`create trigger poison before insert on t when new.v = 'poison' begin select raise(rollback, 'poisoned'); end`.execute(db);
  await store.durable();
});

afterEach(async () => {
  await store.close();
});

describe('Batched SQLite transactions', () => {
  it('commits the transactions of one turn in one COMMIT: none is visible elsewhere, nor resolves, before it', async () => {
    const seenInsideLast: unknown[] = [];
    const settled: string[] = [];
    const last = db.transaction().execute(async (trx) => {
      await sql`insert into t (v) values ('c')`.execute(trx);
      seenInsideLast.push(...rowsSeenByAnotherConnection());
    });
    await Promise.all([
      insert('a').then(() => settled.push('a')),
      insert('b').then(() => settled.push('b')),
      last.then(() => settled.push('c')),
    ]);
    // 'a' and 'b' had finished before 'c' ran, yet nothing was committed then.
    expect(seenInsideLast).toEqual([]);
    expect(settled.sort()).toEqual(['a', 'b', 'c']);
    expect(rowsSeenByAnotherConnection()).toEqual(['a', 'b', 'c']);
  });

  it('rolls back only the failing transaction of a batch; the others commit', async () => {
    const results = await Promise.allSettled([
      insert('a'),
      db.transaction().execute(async (trx) => {
        await sql`insert into t (v) values ('b')`.execute(trx);
        await sql`insert into t (v) values ('a')`.execute(trx); // unique violation: this transaction fails whole
      }),
      insert('c'),
    ]);
    expect(results.map((r) => r.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
    expect(rowsSeenByAnotherConnection()).toEqual(['a', 'c']);
  });

  it('when SQLite rolls the whole batch back, every transaction that shared it fails and none is kept', async () => {
    const results = await Promise.allSettled([insert('a'), insert('poison')]);
    // 'a' had succeeded as a savepoint, but its batch is gone: it must not resolve as done.
    expect(results.map((r) => r.status)).toEqual(['rejected', 'rejected']);
    expect(String((results[0] as PromiseRejectedResult).reason)).toMatch(/rolled back/);
    expect(await rows()).toEqual([]);
    // The next batch starts afresh.
    await insert('d');
    expect(rowsSeenByAnotherConnection()).toEqual(['d']);
  });

  it('a query made while a batch is open resolves once the batch has committed', async () => {
    const order: string[] = [];
    await Promise.all([
      insert('a').then(() => order.push('insert')),
      rows().then((seen) => order.push(`read ${seen.join()}`)),
    ]);
    expect(order).toEqual(['insert', 'read a']);
    expect(rowsSeenByAnotherConnection()).toEqual(['a']);
  });

  it('a fixed statement answers only committed rows, at whatever moment of a batch it is made', async () => {
    // Reads made at every step of two transactions (inside one, between them, after their savepoints,
    // before the batch's COMMIT): each must answer rows that another connection sees too by then.
    const answers: Array<{ answered: string[]; committed: unknown[] }> = [];
    const read = () => fixedRows().then((answered) => answers.push({ answered, committed: rowsSeenByAnotherConnection() }));
    const reads: Promise<unknown>[] = [];
    const writes = [
      db.transaction().execute(async (trx) => {
        await sql`insert into t (v) values ('a')`.execute(trx);
        reads.push(read());
        await sql`insert into t (v) values ('b')`.execute(trx);
      }),
      insert('c'),
    ];
    for (let step = 0; step < 40; step++) {
      reads.push(read());
      await Promise.resolve();
    }
    await Promise.all(writes);
    await Promise.all(reads);
    expect(answers.length).toBe(41);
    for (const { answered, committed } of answers) expect(committed).toEqual(expect.arrayContaining(answered));
    expect(answers.some(({ answered }) => answered.length === 3)).toBe(true);
  });

  it('a fixed statement on an idle connection answers at once, without a promise, with what is committed', async () => {
    await insert('c');
    expect(SELECT_ROWS(store.db, [])).toEqual([{ v: 'c' }]);
  });

  it('a fixed statement that fails answers a rejected promise, never a throw, and changes nothing', async () => {
    await insert('d');
    const answer = INSERT_ROW(store.db, ['d']);
    expect(answer).toBeInstanceOf(Promise);
    await expect(answer).rejects.toThrow(/UNIQUE/);
    expect(rowsSeenByAnotherConnection()).toEqual(['d']);
  });
});
