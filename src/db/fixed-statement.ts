import { CompiledQuery } from 'kysely';
import type { MaybePromise } from '../lib/maybe-promise.js';
import { DirectSqliteAdapter } from './batched-transactions.js';
import { dialectOf, type Db } from './database.js';

/**
 * A hot statement whose text never changes, written once with `?` placeholders (numbered `$n` for
 * PostgreSQL): running it skips Kysely's building and compiling of a query on every call, and the
 * store prepares the text once; on SQLite it runs straight on the connection inside a transaction,
 * and outside one while the connection is idle (DirectSqliteAdapter), and then answers its rows at
 * once, without a promise. Its errors are always a rejected promise. Keep such texts to the few
 * statements on a hot path; the rest use the query builder.
 */
export function fixedStatement<Row = unknown>(text: string): (db: Db, parameters: unknown[]) => MaybePromise<Row[]> {
  let n = 0;
  const numbered = text.replace(/\?/g, () => `$${++n}`);
  return (db, parameters) => {
    const adapter = db.getExecutor().adapter;
    if (adapter instanceof DirectSqliteAdapter && (db.isTransaction || adapter.connectionIdle())) {
      try {
        return adapter.rows<Row>(text, parameters);
      } catch (error) {
        return Promise.reject(error as Error);
      }
    }
    const sql = dialectOf(db) === 'postgres' ? numbered : text;
    return db.executeQuery<Row>(CompiledQuery.raw(sql, parameters)).then((result) => result.rows);
  };
}
