import { invalid } from '../domain/errors.js';

const CURRENCIES = new Set(Intl.supportedValuesOf('currency'));

/** ISO 4217 code, upper case. */
export function assertCurrency(currency: string, pointer: string): void {
  if (!/^[A-Z]{3}$/.test(currency) || !CURRENCIES.has(currency)) {
    throw invalid(pointer, 'must be an ISO 4217 currency code such as EUR or USD');
  }
}

/** ISO 4217 minor units of the currencies that do not have 2 (the list's "E" column). */
const MINOR_UNITS: Record<string, number> = {
  ...Object.fromEntries(
    ['BIF', 'CLP', 'DJF', 'GNF', 'ISK', 'JPY', 'KMF', 'KRW', 'PYG', 'RWF', 'UGX', 'UYI', 'VND', 'VUV', 'XAF', 'XOF', 'XPF'].map((c) => [c, 0]),
  ),
  ...Object.fromEntries(['BHD', 'IQD', 'JOD', 'KWD', 'LYD', 'OMR', 'TND'].map((c) => [c, 3])),
  CLF: 4,
  UYW: 4,
};

/** Digits after the decimal point of the currency's minor unit (ISO 4217): 2 for EUR, 0 for JPY, 3 for KWD. */
export const minorUnitsOf = (currency: string): number => MINOR_UNITS[currency] ?? 2;
