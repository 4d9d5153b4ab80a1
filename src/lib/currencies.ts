import { invalid } from '../domain/errors.js';

const CURRENCIES = new Set(Intl.supportedValuesOf('currency'));

/** ISO 4217 code, upper case. */
export function assertCurrency(currency: string, pointer: string): void {
  if (!/^[A-Z]{3}$/.test(currency) || !CURRENCIES.has(currency)) {
    throw invalid(pointer, 'must be an ISO 4217 currency code such as EUR or USD');
  }
}
