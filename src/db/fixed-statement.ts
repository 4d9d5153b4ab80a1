import { CompiledQuery } from 'kysely';
import { DirectSqliteAdapter } from './batched-transactions.js';
import { dialectOf, type Db } from './database.js';

/**
 * A hot statement whose text never changes, written once with `?` placeholders (numbered `$n` for
 * PostgreSQL): running it skips Kysely's building and compiling of a query on every call, and the
 * store prepares the text once; on SQLite it runs straight on the connection inside a transaction,
 * and outside one while the connection is idle (DirectSqliteAdapter). Keep such texts to the few statements on a hot path; the rest use the query
 * builder.
 */
export function fixedStatement<Row = unknown>(text: string): (db: Db, parameters: unknown[]) => Promise<Row[]> {
  let n = 0;
  const numbered = text.replace(/\?/g, () => `$${++n}`);
  return async (db, parameters) => {
    const adapter = db.getExecutor().adapter;
    if (adapter instanceof DirectSqliteAdapter && (db.isTransaction || adapter.connectionIdle())) return adapter.rows<Row>(text, parameters);
    const sql = dialectOf(db) === 'postgres' ? numbered : text;
    return (await db.executeQuery<Row>(CompiledQuery.raw(sql, parameters))).rows;
  };
}
