import { sql } from 'kysely';
import type { Db } from '../../db/database.js';
import { conflict, invalid } from '../../domain/errors.js';
import { toUtcIso } from '../../lib/time.js';
import { assertCurrency } from '../../lib/currencies.js';
import type { RateBody } from './schemas.js';

/** A rate body checked and normalized: canonical UTC instants, `to` after `from` or null. */
export interface RatePeriod {
  currency: string;
  fromAt: string;
  toAt: string | null;
  taxRate: number;
  value: number;
}

export function checkRateBody(body: RateBody): RatePeriod {
  assertCurrency(body.currency, '/body/currency');
  const fromAt = toUtcIso(body.from);
  if (fromAt === null) throw invalid('/body/from', 'must be a date-time with an offset');
  let toAt: string | null = null;
  if (body.to !== undefined && body.to !== null) {
    toAt = toUtcIso(body.to);
    if (toAt === null) throw invalid('/body/to', 'must be a date-time with an offset');
    if (toAt <= fromAt) throw invalid('/body/to', 'must be after from');
  }
  return { currency: body.currency, fromAt, toAt, taxRate: body.taxRate, value: body.value };
}

/** The stored columns of a checked period, for inserts and updates alike. */
export const periodColumns = (period: RatePeriod) => ({
  currency: period.currency,
  from_at: period.fromAt,
  to_at: period.toAt,
  tax_rate: period.taxRate,
  value: period.value,
});

/**
 * 409 when the period overlaps another rate of the same owner (a member's revenue rates, a user's
 * cost rates). Periods are half-open [from, to); null `to` runs forever. Call it inside the write's
 * transaction after lockRowForWrite on the owner row, so concurrent writers cannot both pass.
 */
export async function assertNoOverlap(
  db: Db,
  table: 'revenue_rates' | 'cost_rates',
  owner: { column: 'member_id' | 'user_id'; id: string },
  period: RatePeriod,
  exceptRateId?: string,
): Promise<void> {
  let query = db
    .selectFrom(table)
    .select('id')
    .where(sql.ref(owner.column), '=', owner.id)
    .where((eb) => eb.or([eb('to_at', 'is', null), eb('to_at', '>', period.fromAt)]));
  if (period.toAt !== null) query = query.where('from_at', '<', period.toAt);
  if (exceptRateId !== undefined) query = query.where('id', '!=', exceptRateId);
  const clash = await query.limit(1).executeTakeFirst();
  if (clash) throw conflict(`The period overlaps rate ${clash.id} of the same owner.`);
}

/** The API fields of a stored rate row (without its owner ids). */
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
