import type { Db } from '../../db/database.js';
import { newId } from '../../lib/ids.js';
import { nowIso } from '../../lib/time.js';
import type { RatePeriod } from './rules.js';
import { periodColumns, rateFieldsOf } from './rules.js';
import type { RevenueRate } from './schemas.js';

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

/** A member's rates in creation order, as every collection (decisions §4); revenue_rates_member_from finds them. */
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
