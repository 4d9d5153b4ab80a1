import { sql } from 'kysely';
import type { Harness } from './harness.js';
import { type ActivityFilter, activityListStatement, type ActivityReader, entriesPageStatement, type SelectionSpec } from './src.js';

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

/**
 * The plan of a page of a detailed report's entries after a key (every entry of the workspace in the
 * period, nothing archived left out), as text. PostgreSQL is told to avoid sequential scans and
 * sorts, so a plan sorts only where no index gives the order.
 */
export async function entriesPagePlanOf(h: Harness, organizationId: string, period: { start: string; end: string }, after: { startedAt: string; id: string }): Promise<string> {
  const spec: SelectionSpec = {
    organizationId,
    period,
    rounding: { enabled: false, interval: 15, mode: 'NEAREST' },
    filters: { billable: [], userIds: [], projectIds: [], clientIds: [], taskIds: [], tagIds: [], nameContains: [] },
    selectedProjects: null,
    selectedProjectMembers: null,
    showArchivedProjects: true,
    showArchivedMembers: true,
    entries: { all: true },
    revenue: null,
  };
  const compiled = entriesPageStatement(h.app.store.dialect, spec, { projects: [], users: [], memberships: [] }, { after, limit: 500 }).compile(h.app.db);
  return h.app.db.transaction().execute(async (trx) => {
    if (h.store === 'postgres') {
      await sql`set local enable_seqscan = off`.execute(trx);
      await sql`set local enable_sort = off`.execute(trx);
    }
    const explain = h.store === 'postgres' ? 'explain ' : 'explain query plan ';
    const result = await trx.executeQuery<Record<string, string>>({ ...compiled, sql: explain + compiled.sql });
    return result.rows.map((row) => row.detail ?? row['QUERY PLAN']).join('\n');
  });
}
