import { conflict, invalid } from '../../domain/errors.js';
import { assertCurrency } from '../../lib/currencies.js';
import { toUtcIso } from '../../lib/time.js';
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

/** 409: two rates of one owner (a member's revenue rates, a user's cost rates) may not overlap. */
export const overlapping = (clashingRateId: string) => conflict(`The period overlaps rate ${clashingRateId} of the same owner.`);
