import type { Config } from '../../../config.js';
import type { Db } from '../../../db/database.js';
import type { Actor } from '../../../domain/actor.js';
import { invalid } from '../../../domain/errors.js';
import { isEmailDomain } from '../../../lib/email.js';
import { nowIso } from '../../../lib/time.js';
import { findSignInSettings, storeSignInSettings, type SignInSettings } from './sign-in-settings-repository.js';

export function signInSettings(db: Db, actor: Actor): Promise<SignInSettings> {
  return findSignInSettings(db, actor.organizationId);
}

/**
 * Changes the workspace's sign-in settings (docs/rules.md §8): fields left out keep their value.
 * Invitation domains are stored lower case, each once; each must be a domain an email can have and,
 * when the deployment limits single sign-on to OIDC_ALLOWED_DOMAINS, one of those (422 otherwise).
 */
export async function changeSignInSettings(
  db: Db,
  config: Config,
  actor: Actor,
  changes: Partial<SignInSettings>,
): Promise<SignInSettings> {
  const domains = changes.invitationDomains && cleanDomains(config, changes.invitationDomains);
  return db.transaction().execute(async (trx) => {
    const current = await findSignInSettings(trx, actor.organizationId);
    const next: SignInSettings = {
      twoFactorRequired: changes.twoFactorRequired ?? current.twoFactorRequired,
      invitationDomains: domains ?? current.invitationDomains,
    };
    await storeSignInSettings(trx, actor.organizationId, next, nowIso());
    return next;
  });
}

function cleanDomains(config: Config, domains: string[]): string[] {
  const allowed = config.oidc?.allowedDomains ?? [];
  const cleaned: string[] = [];
  domains.forEach((domain, i) => {
    const pointer = `/body/invitationDomains/${i}`;
    const value = domain.trim().toLowerCase();
    if (!isEmailDomain(value)) throw invalid(pointer, 'must be an email domain such as example.com');
    if (allowed.length > 0 && !allowed.includes(value)) throw invalid(pointer, 'must be one of the domains the deployment allows for single sign-on (OIDC_ALLOWED_DOMAINS)');
    if (!cleaned.includes(value)) cleaned.push(value);
  });
  return cleaned;
}
