import { CompiledQuery } from 'kysely';
import { dialectOf, type Db } from './database.js';

/**
 * A hot statement whose text never changes, written once with `?` placeholders (numbered `$n` for
 * PostgreSQL): running it skips Kysely's building and compiling of a query on every call, and the
 * store prepares the text once. Keep such texts to the few statements on a hot path; the rest use
 * the query builder.
 */
export function fixedStatement<Row = unknown>(text: string): (db: Db, parameters: unknown[]) => Promise<Row[]> {
  let n = 0;
  const numbered = text.replace(/\?/g, () => `$${++n}`);
  return async (db, parameters) => {
    const sql = dialectOf(db) === 'postgres' ? numbered : text;
    return (await db.executeQuery<Row>(CompiledQuery.raw(sql, parameters))).rows;
  };
}
