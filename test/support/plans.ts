import { sql } from 'kysely';
import type { Harness } from './harness.js';
import { type ActivityFilter, activityListStatement, type ActivityReader } from './src.js';

/**
 * The plan the store would run for a listing of GET /activities, as text (PostgreSQL told to avoid
 * sequential scans, as it would on a large table).
 */
export async function listingPlanOf(
  h: Harness,
  filter: ActivityFilter,
  reader: ActivityReader,
  options: { administers?: boolean } = {},
): Promise<string> {
  const compiled = activityListStatement(h.app.store.dialect, filter, reader, options);
  return h.app.db.transaction().execute(async (trx) => {
    if (h.store === 'postgres') await sql`set local enable_seqscan = off`.execute(trx);
    const explain = h.store === 'postgres' ? 'explain ' : 'explain query plan ';
    const result = await trx.executeQuery<Record<string, string>>({ ...compiled, sql: explain + compiled.sql });
    return result.rows.map((row) => row.detail ?? row['QUERY PLAN']).join('\n');
  });
}
