/**
 * Exact money (docs/rules.md §6 Reports, "Money"). An entry earns `seconds × value / 3600` in its rate's
 * currency. Amounts are kept exact as fractions of BigInts while a row's entries are summed; each
 * leaf row's amount is then rounded once to the currency's minor unit (half away from zero), and every
 * parent row and the totals are the sums of their rounded children, so each total equals the sum of
 * its rows to the last minor unit.
 */
import { minorUnitsOf } from '../../../lib/currencies.js';

/** A non-negative rational: numerator / denominator. */
interface Fraction {
  numerator: bigint;
  denominator: bigint;
}

/**
 * A rate value as an exact decimal: the number the client sent, as its shortest decimal text
 * (85.5, not the binary double nearest to it), e.g. 85.5 → 855/10.
 */
export function decimalOf(value: number): Fraction {
  const [mantissa, exponentText] = value.toString().toLowerCase().split('e');
  const exponent = exponentText === undefined ? 0 : Number(exponentText);
  const [whole, fraction = ''] = mantissa.split('.');
  const digits = BigInt(whole + fraction);
  const scale = fraction.length - exponent;
  return scale >= 0 ? { numerator: digits, denominator: 10n ** BigInt(scale) } : { numerator: digits * 10n ** BigInt(-scale), denominator: 1n };
}

const gcd = (a: bigint, b: bigint): bigint => {
  while (b !== 0n) [a, b] = [b, a % b];
  return a;
};

/** Exact sums per currency, before rounding. */
export class ExactAmounts {
  private readonly sums = new Map<string, Fraction>();

  /** Adds `seconds × value / 3600` in the currency. */
  addTime(currency: string, seconds: number, value: number): void {
    const rate = decimalOf(value);
    this.add(currency, { numerator: BigInt(seconds) * rate.numerator, denominator: 3600n * rate.denominator });
  }

  private add(currency: string, term: Fraction): void {
    const sum = this.sums.get(currency);
    if (sum === undefined) {
      this.sums.set(currency, term);
      return;
    }
    const numerator = sum.numerator * term.denominator + term.numerator * sum.denominator;
    const denominator = sum.denominator * term.denominator;
    const divisor = gcd(numerator, denominator);
    this.sums.set(currency, { numerator: numerator / divisor, denominator: denominator / divisor });
  }

  get empty(): boolean {
    return this.sums.size === 0;
  }

  /** Each currency's sum in minor units, rounded half away from zero (sums here are never negative). */
  rounded(): MinorAmounts {
    const out: MinorAmounts = new Map();
    for (const [currency, { numerator, denominator }] of this.sums) {
      const scaled = numerator * 10n ** BigInt(minorUnitsOf(currency));
      out.set(currency, (2n * scaled + denominator) / (2n * denominator));
    }
    return out;
  }
}

/** Rounded amounts: minor units (cents) per currency. */
export type MinorAmounts = Map<string, bigint>;

export function addMinor(into: MinorAmounts, amounts: MinorAmounts, sign: 1n | -1n = 1n): void {
  for (const [currency, minor] of amounts) into.set(currency, (into.get(currency) ?? 0n) + sign * minor);
}

/** The JSON of an amount map: `{"EUR": 1234.5}`, currencies in code order, each in its major unit. */
export function amountsJson(amounts: MinorAmounts): Record<string, number> {
  const out: Record<string, number> = {};
  for (const currency of [...amounts.keys()].sort()) {
    out[currency] = Number(amounts.get(currency)!) / 10 ** minorUnitsOf(currency);
  }
  return out;
}
