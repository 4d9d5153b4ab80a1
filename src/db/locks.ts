import type { Db } from './database.js';

/**
 * Takes the write lock on one row for the rest of the transaction, in both stores: a no-op UPDATE
 * row-locks it in PostgreSQL and makes SQLite take its write lock at once. Rules that read then
 * write (no overlapping rate periods, one pending resolution) call it on the parent row first, so
 * concurrent writers of the same parent run one after another.
 */
export async function lockRowForWrite(
  db: Db,
  table: 'users' | 'project_members' | 'projects' | 'organizations' | 'activities',
  id: string,
): Promise<boolean> {
  const result = await db
    .updateTable(table)
    .set((eb) => ({ id: eb.ref('id') }))
    .where('id', '=', id)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}
