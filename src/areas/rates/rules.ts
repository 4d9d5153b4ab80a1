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
/** An instant as a person reads it in a message: the day alone at midnight UTC, else to the minute. */
const readable = (at: string): string => (at.endsWith('T00:00:00.000Z') ? at.slice(0, 10) : `${at.slice(0, 16).replace('T', ' ')} UTC`);

/** 409 naming the period of the rate the new one would overlap (its id means nothing to a person). */
export const overlapping = (clash: Pick<RatePeriod, 'fromAt' | 'toAt'>) =>
  conflict(`The period overlaps another rate of the same owner, ${clash.toAt === null ? `from ${readable(clash.fromAt)}, open-ended` : `from ${readable(clash.fromAt)} to ${readable(clash.toAt)}`}.`);
