import { sql } from 'kysely';
import type { Db } from '../../db/database.js';
import { readableRows } from '../../db/record-scopes.js';
import type { ReaderScope } from '../../domain/policy.js';
import type { ReportPeriod } from './engine/period.js';

/*
 * The SQL of a detailed report's file besides its entries (entries-repository.ts): the currencies that
 * give its money columns.
 */

/** Rates of the period: from before its end, to after its start (or open). */
const overlapping = (period: ReportPeriod) => sql`from_at < ${period.end} and (to_at is null or to_at > ${period.start})`;

/** The currencies of the workspace's revenue rates in the period that the scope reaches (by the rate's project). */
export async function revenueCurrencies(db: Db, organizationId: string, period: ReportPeriod, scope: ReaderScope): Promise<string[]> {
  const readable = readableRows(scope, { organizationId, projectColumn: 'project_id' });
  const { rows } = await sql<{ currency: string }>`select distinct currency from revenue_rates where organization_id = ${organizationId}
    and ${overlapping(period)}${readable === null ? sql`` : sql` and ${readable}`} order by currency`.execute(db);
  return rows.map((row) => row.currency);
}

/** The currencies of the workspace's cost rates in the period. */
export async function costCurrencies(db: Db, organizationId: string, period: ReportPeriod): Promise<string[]> {
  const { rows } = await sql<{ currency: string }>`select distinct currency from cost_rates where organization_id = ${organizationId}
    and ${overlapping(period)} order by currency`.execute(db);
  return rows.map((row) => row.currency);
}
