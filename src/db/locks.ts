import { dialectOf, type Db } from './database.js';

type LockableTable = 'users' | 'project_members' | 'projects' | 'organizations';

/**
 * Takes the write lock on one row for the rest of the transaction, in both stores; false when there
 * is no such row. Rules that read then write (no overlapping rate periods, one pending resolution)
 * call it on the parent row first, so concurrent writers of the same parent run one after another.
 *
 * PostgreSQL: a no-op UPDATE row-locks it. SQLite: every transaction already runs alone, inside a
 * batch that holds the file's write lock from its start (BatchingSqliteDriver), so the row is only
 * looked up: rewriting it would cost a WAL page per write for nothing.
 */
export async function lockRowForWrite(db: Db, table: LockableTable, id: string): Promise<boolean> {
  if (dialectOf(db) === 'sqlite') {
    return (await db.selectFrom(table).select('id').where('id', '=', id).executeTakeFirst()) !== undefined;
  }
  const result = await db
    .updateTable(table)
    .set((eb) => ({ id: eb.ref('id') }))
    .where('id', '=', id)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}
