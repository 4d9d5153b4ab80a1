import { conflict, invalid } from '../../domain/errors.js';

export const domainTaken = (domain: string) => conflict(`The domain "${domain}" is taken.`);

/** How long the domains of a deleted workspace stay reserved (docs/rules.md §2): 90 days. */
export const RETIRED_DOMAIN_DAYS = 90;

/** The end of the reservation of domains retired at `now`. */
export const retiredUntil = (now: string): string => new Date(Date.parse(now) + RETIRED_DOMAIN_DAYS * 86_400_000).toISOString();

const minutesOfDay = (hhmm: string) => Number(hhmm.slice(0, 2)) * 60 + Number(hhmm.slice(3, 5));

export function assertCoreHours(start: string, end: string): void {
  if (minutesOfDay(start) >= minutesOfDay(end)) {
    throw invalid('/body/coreHours/start', 'must be before end');
  }
}

/** The organization a new workspace starts with (docs/rules.md §4 units). */
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
