import { Type, type Static } from '@sinclair/typebox';
import { CURRENCY_PATTERN, Nullable, Timestamp } from '../../route-kit/schemas.js';

/** The fields every rate carries, revenue (per project member) or cost (per user). */
const rateFields = {
  currency: Type.String({ description: 'ISO 4217 code' }),
  from: Timestamp('Start of the period the rate is in force'),
  to: Type.Optional(Nullable(Timestamp('End of the period (exclusive); null: open-ended'))),
  taxRate: Type.Number({ description: 'Percent, 0–100' }),
  value: Type.Number({ description: 'Amount per hour in currency, ≥ 0' }),
};

export const RevenueRate = Type.Object(
  { id: Type.String(), projectId: Type.String(), memberId: Type.String(), ...rateFields },
  { $id: 'RevenueRate', title: 'RevenueRate' },
);
export type RevenueRate = Static<typeof RevenueRate>;

export const CostRate = Type.Object(
  { id: Type.String(), userId: Type.String(), ...rateFields },
  { $id: 'CostRate', title: 'CostRate' },
);
export type CostRate = Static<typeof CostRate>;

/** The rules of a rate body beyond its schema, for each rate operation's 422. */
export const RATE_RULES =
  'Also: a `currency` that is no ISO 4217 code (three upper-case letters the pattern allows, yet unknown, such as XYZ), ' +
  'or a `to` that is not after `from`';

/** Create and update take the same body: every field, `to` optional (open-ended when absent or null). */
export const RateBody = Type.Object(
  {
    currency: Type.String({ minLength: 3, maxLength: 3, pattern: CURRENCY_PATTERN, description: 'ISO 4217 code, upper case' }),
    from: Timestamp(),
    to: Type.Optional(Nullable(Timestamp('After from, or null for open-ended'))),
    taxRate: Type.Number({ minimum: 0, maximum: 100, description: 'Percent' }),
    value: Type.Number({ minimum: 0, maximum: 1e12 }),
  },
  { description: 'Periods of one member (or one user) may not overlap: 409.' },
);
export type RateBody = Static<typeof RateBody>;
