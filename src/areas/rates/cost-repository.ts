import type { Db } from '../../db/database.js';
import { newId } from '../../lib/ids.js';
import { nowIso } from '../../lib/time.js';
import { periodColumns, rateFieldsOf } from './repository.js';
import type { RatePeriod } from './rules.js';
import type { CostRate } from './schemas.js';

const costColumns = ['id', 'user_id', 'currency', 'from_at', 'to_at', 'tax_rate', 'value'] as const;

function toCostRate(row: {
  id: string;
  user_id: string;
  currency: string;
  from_at: string;
  to_at: string | null;
  tax_rate: number;
  value: number;
}): CostRate {
  const { id, ...fields } = rateFieldsOf(row);
  return { id, userId: row.user_id, ...fields };
}

/** A user's cost rates in creation order. */
export async function listCostRates(db: Db, organizationId: string, userId: string): Promise<CostRate[]> {
  const rows = await db
    .selectFrom('cost_rates')
    .select(costColumns)
    .where('organization_id', '=', organizationId)
    .where('user_id', '=', userId)
    .orderBy('created_at')
    .orderBy('id')
    .execute();
  return rows.map(toCostRate);
}

export async function findCostRate(
  db: Db,
  organizationId: string,
  userId: string,
  costId: string,
): Promise<CostRate | undefined> {
  const row = await db
    .selectFrom('cost_rates')
    .select(costColumns)
    .where('organization_id', '=', organizationId)
    .where('user_id', '=', userId)
    .where('id', '=', costId)
    .executeTakeFirst();
  return row ? toCostRate(row) : undefined;
}

export async function insertCostRate(db: Db, organizationId: string, userId: string, period: RatePeriod): Promise<string> {
  const id = newId();
  const now = nowIso();
  await db
    .insertInto('cost_rates')
    .values({
      id,
      organization_id: organizationId,
      user_id: userId,
      ...periodColumns(period),
      created_at: now,
      updated_at: now,
    })
    .execute();
  return id;
}

export async function updateCostRate(db: Db, costId: string, period: RatePeriod): Promise<void> {
  await db
    .updateTable('cost_rates')
    .set({
      ...periodColumns(period),
      updated_at: nowIso(),
    })
    .where('id', '=', costId)
    .execute();
}

/** Deletes a cost rate; false when it was gone already. */
export async function deleteCostRate(db: Db, costId: string): Promise<boolean> {
  const result = await db.deleteFrom('cost_rates').where('id', '=', costId).executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}

/** True when the user belongs to the workspace (archived or not). */
export async function userExists(db: Db, organizationId: string, userId: string): Promise<boolean> {
  const row = await db
    .selectFrom('users')
    .select('id')
    .where('organization_id', '=', organizationId)
    .where('id', '=', userId)
    .executeTakeFirst();
  return row !== undefined;
}
