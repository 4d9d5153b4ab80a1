import type { Db } from '../../db/database.js';
import { isUniqueViolation } from '../../db/errors.js';
import { toDbBool, toJson } from '../../db/values.js';
import { newId } from '../../lib/ids.js';
import { isEmail } from '../../lib/email.js';
import { cleanName } from '../../lib/names.js';
import { nowIso } from '../../lib/time.js';
import { API_KEY_PREFIX, newToken } from '../../lib/tokens.js';
import { findOrCreateAccount, insertApiKey } from '../access/index.js';
import { createUser } from '../users/index.js';
import { domainHolder, insertOrganization } from './repository.js';
import { assertCurrency } from '../../lib/currencies.js';
import { assertUsableDomain } from '../../lib/domains.js';
import { canonicalTimeZone } from '../../lib/time-zones.js';
import { domainTaken, ORGANIZATION_DEFAULTS } from './rules.js';
import { invalid } from '../../domain/errors.js';

export interface NewWorkspace {
  domain: string;
  name: string;
  adminEmail: string;
  adminName?: string;
  currency?: string;
  timeZone?: string;
}

export interface CreatedWorkspace {
  domain: string;
  organizationId: string;
  userId: string;
  apiKey: string;
}

/**
 * Creates a workspace with its first administrator and an API key for them, in one transaction.
 * Throws ApiError 422 for an invalid domain, name, email, currency or time zone, 409 for a taken domain.
 */
export async function createWorkspace(db: Db, input: NewWorkspace): Promise<CreatedWorkspace> {
  const domain = input.domain.trim().toLowerCase();
  assertUsableDomain(domain, '/domain');
  const name = cleanName(input.name, '/name');
  if (!isEmail(input.adminEmail)) throw invalid('/adminEmail', 'must be an email address');
  const currency = input.currency ?? ORGANIZATION_DEFAULTS.currency;
  assertCurrency(currency, '/currency');
  const timeZone = canonicalTimeZone(input.timeZone ?? ORGANIZATION_DEFAULTS.timeZone, '/timeZone');
  const organizationId = newId();
  const apiKey = newToken(API_KEY_PREFIX);
  const now = nowIso();
  try {
    const userId = await db.transaction().execute(async (trx) => {
      if ((await domainHolder(trx, domain)) !== undefined) throw domainTaken(domain);
      await insertOrganization(trx, {
        id: organizationId,
        domain,
        name,
        currency,
        time_zone: timeZone,
        core_hours_start: ORGANIZATION_DEFAULTS.coreHours.start,
        core_hours_end: ORGANIZATION_DEFAULTS.coreHours.end,
        rounding_enabled: toDbBool(ORGANIZATION_DEFAULTS.rounding.enabled),
        rounding_interval: ORGANIZATION_DEFAULTS.rounding.interval,
        rounding_mode: ORGANIZATION_DEFAULTS.rounding.mode,
        locking_enabled: toDbBool(ORGANIZATION_DEFAULTS.lockingTimesheets.enabled),
        locking_time_zone: null,
        unlock_duration: ORGANIZATION_DEFAULTS.lockingTimesheets.unlockDuration,
        lock_year: null,
        lock_week: null,
        holidays: null,
        notes: null,
        onboarding: toJson(ORGANIZATION_DEFAULTS.onboarding),
        plan: ORGANIZATION_DEFAULTS.plan,
        created_at: now,
        updated_at: now,
      });
      const accountId = await findOrCreateAccount(trx, input.adminEmail);
      const userId = await createUser(trx, {
        organizationId,
        accountId,
        role: 'Administrator',
        name: input.adminName?.trim() || null,
      });
      await insertApiKey(trx, { organizationId, userId, name: 'Created with the workspace', token: apiKey });
      return userId;
    });
    return { domain, organizationId, userId, apiKey };
  } catch (error) {
    if (isUniqueViolation(error)) throw domainTaken(domain);
    throw error;
  }
}
