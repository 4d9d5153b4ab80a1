import { ApiError, conflict, invalid } from '../../domain/errors.js';

/** Workspace domains (decisions §2): one lowercase DNS label of 3–63 characters, not reserved. */
const DOMAIN_LABEL = /^[a-z0-9](?:[a-z0-9-]{1,61})[a-z0-9]$/;
export const RESERVED_DOMAINS = new Set(['api', 'www', 'app', 'admin', 'mail', 'static', 'docs']);

export const isWellFormedDomain = (domain: string): boolean => DOMAIN_LABEL.test(domain);

/** Throws 422 for a malformed or reserved domain. */
export function assertUsableDomain(domain: string, pointer = '/body/domain'): void {
  if (!isWellFormedDomain(domain)) {
    throw invalid(pointer, 'must be 3–63 characters of a-z, 0-9 and -, not starting or ending with -');
  }
  if (RESERVED_DOMAINS.has(domain)) throw invalid(pointer, `"${domain}" is reserved`);
}

export const domainTaken = (domain: string) => conflict(`The domain "${domain}" is taken.`);

const CURRENCIES = new Set(Intl.supportedValuesOf('currency'));

/** ISO 4217 code, upper case. */
export function assertCurrency(currency: string, pointer: string): void {
  if (!/^[A-Z]{3}$/.test(currency) || !CURRENCIES.has(currency)) {
    throw invalid(pointer, 'must be an ISO 4217 currency code such as EUR or USD');
  }
}

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

const minutesOfDay = (hhmm: string) => Number(hhmm.slice(0, 2)) * 60 + Number(hhmm.slice(3, 5));

export function assertCoreHours(start: string, end: string): void {
  if (minutesOfDay(start) >= minutesOfDay(end)) {
    throw new ApiError('validation', 'coreHours.start must be before coreHours.end.', [
      { pointer: '/body/coreHours/start', message: 'must be before end' },
    ]);
  }
}

/** The organization a new workspace starts with (decisions §4 units). */
export const ORGANIZATION_DEFAULTS = {
  currency: 'USD',
  timeZone: 'UTC',
  coreHours: { start: '09:00', end: '17:00' },
  rounding: { enabled: false, interval: 15, mode: 'NEAREST' },
  lockingTimesheets: { enabled: false, unlockDuration: 24 },
  plan: 'free',
  onboarding: Object.fromEntries(
    ['assignMembers', 'inviteMembers', 'organization', 'preferences', 'projects'].map((step) => [
      step,
      { done: false, viewed: false },
    ]),
  ),
} as const;
