import { invalid } from '../domain/errors.js';

/** Returns the canonical IANA name of a time zone, or throws 422. */
export function canonicalTimeZone(zone: string, pointer: string): string {
  if (/^[A-Za-z][A-Za-z0-9_+\-/]*$/.test(zone)) {
    try {
      return new Intl.DateTimeFormat('en-US', { timeZone: zone }).resolvedOptions().timeZone;
    } catch {
      // falls through to the 422 below
    }
  }
  throw invalid(pointer, 'must be an IANA time-zone name such as Europe/Berlin');
}
