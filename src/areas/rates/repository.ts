import { sql } from 'kysely';
import type { Db } from '../../db/database.js';
import { newId } from '../../lib/ids.js';
import { nowIso } from '../../lib/time.js';
import type { RatePeriod } from './rules.js';
import type { RevenueRate } from './schemas.js';

/** The stored columns of a checked period, for inserts and updates of either kind of rate. */
export const periodColumns = (period: RatePeriod) => ({
  currency: period.currency,
  from_at: period.fromAt,
  to_at: period.toAt,
  tax_rate: period.taxRate,
  value: period.value,
});

/** The API fields of a stored rate row of either kind (without its owner ids). */
export function rateFieldsOf(row: {
  id: string;
  currency: string;
  from_at: string;
  to_at: string | null;
  tax_rate: number;
  value: number;
}) {
  return {
    id: row.id,
    currency: row.currency,
    from: row.from_at,
    to: row.to_at,
    taxRate: Number(row.tax_rate),
    value: Number(row.value),
  };
}

/**
 * The id of a rate of the same owner (a member's revenue rates, a user's cost rates) whose period
 * overlaps the given one, if any. Periods are half-open [from, to); null `to` runs forever.
 */
export async function findOverlappingRate(
  db: Db,
  table: 'revenue_rates' | 'cost_rates',
  owner: { column: 'member_id' | 'user_id'; id: string },
  period: RatePeriod,
  exceptRateId?: string,
): Promise<{ fromAt: string; toAt: string | null } | undefined> {
  let query = db
    .selectFrom(table)
    .select(['from_at as fromAt', 'to_at as toAt'])
    .where(sql.ref(owner.column), '=', owner.id)
    .where((eb) => eb.or([eb('to_at', 'is', null), eb('to_at', '>', period.fromAt)]));
  if (period.toAt !== null) query = query.where('from_at', '<', period.toAt);
  if (exceptRateId !== undefined) query = query.where('id', '!=', exceptRateId);
  return query.limit(1).executeTakeFirst();
}

/** Revenue rates: one project member's rates. Every query names the workspace, the project and the member. */
export interface MemberRef {
  organizationId: string;
  projectId: string;
  memberId: string;
}

type RevenueRateRow = Parameters<typeof rateFieldsOf>[0] & { project_id: string; member_id: string };

const toRevenueRate = (row: RevenueRateRow): RevenueRate => ({
  ...rateFieldsOf(row),
  projectId: row.project_id,
  memberId: row.member_id,
});

/** A member's rates in creation order, as every collection (docs/rules.md §4); revenue_rates_member_from finds them. */
export async function listRevenueRates(db: Db, member: MemberRef): Promise<RevenueRate[]> {
  const rows = await db
    .selectFrom('revenue_rates')
    .selectAll()
    .where('member_id', '=', member.memberId)
    .where('project_id', '=', member.projectId)
    .where('organization_id', '=', member.organizationId)
    .orderBy('created_at')
    .orderBy('id')
    .execute();
  return rows.map(toRevenueRate);
}

export async function findRevenueRate(db: Db, member: MemberRef, rateId: string): Promise<RevenueRate | undefined> {
  const row = await db
    .selectFrom('revenue_rates')
    .selectAll()
    .where('id', '=', rateId)
    .where('member_id', '=', member.memberId)
    .where('project_id', '=', member.projectId)
    .where('organization_id', '=', member.organizationId)
    .executeTakeFirst();
  return row && toRevenueRate(row);
}

export async function insertRevenueRate(db: Db, member: MemberRef, period: RatePeriod): Promise<string> {
  const id = newId();
  const now = nowIso();
  await db
    .insertInto('revenue_rates')
    .values({
      id,
      organization_id: member.organizationId,
      project_id: member.projectId,
      member_id: member.memberId,
      ...periodColumns(period),
      created_at: now,
      updated_at: now,
    })
    .execute();
  return id;
}

export async function updateRevenueRate(db: Db, member: MemberRef, rateId: string, period: RatePeriod): Promise<void> {
  await db
    .updateTable('revenue_rates')
    .set({
      ...periodColumns(period),
      updated_at: nowIso(),
    })
    .where('id', '=', rateId)
    .where('member_id', '=', member.memberId)
    .where('organization_id', '=', member.organizationId)
    .execute();
}

export async function deleteRevenueRate(db: Db, member: MemberRef, rateId: string): Promise<boolean> {
  const result = await db
    .deleteFrom('revenue_rates')
    .where('id', '=', rateId)
    .where('member_id', '=', member.memberId)
    .where('project_id', '=', member.projectId)
    .where('organization_id', '=', member.organizationId)
    .executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}

/** A rate an import brings: its period and value from the file, no tax. */
export interface ImportedRate {
  id: string;
  from: string;
  to: string | null;
  value: number;
  currency: string;
}

const importedRateColumns = (organizationId: string, rate: ImportedRate, now: string) => ({
  id: rate.id,
  organization_id: organizationId,
  currency: rate.currency,
  from_at: rate.from,
  to_at: rate.to,
  tax_rate: 0,
  value: rate.value,
  created_at: now,
  updated_at: now,
});

/** Revenue and cost rates an import brings, with the ids its plan gave them (docs/rules.md §6 Imports). */
export async function insertImportedRates(
  db: Db,
  organizationId: string,
  revenue: ReadonlyArray<ImportedRate & { projectId: string; memberId: string }>,
  cost: ReadonlyArray<ImportedRate & { userId: string }>,
): Promise<void> {
  const now = nowIso();
  for (let i = 0; i < revenue.length; i += 500) {
    await db
      .insertInto('revenue_rates')
      .values(revenue.slice(i, i + 500).map((rate) => ({ ...importedRateColumns(organizationId, rate, now), project_id: rate.projectId, member_id: rate.memberId })))
      .execute();
  }
  for (let i = 0; i < cost.length; i += 500) {
    await db
      .insertInto('cost_rates')
      .values(cost.slice(i, i + 500).map((rate) => ({ ...importedRateColumns(organizationId, rate, now), user_id: rate.userId })))
      .execute();
  }
}
