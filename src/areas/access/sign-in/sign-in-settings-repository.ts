import type { Db, Trx } from '../../../db/database.js';
import { fromDbBool, fromJson, toDbBool, toJson } from '../../../db/values.js';

/* A workspace's sign-in settings. */

export interface SignInSettings {
  twoFactorRequired: boolean;
  invitationDomains: string[];
}

export const DEFAULT_SIGN_IN_SETTINGS: SignInSettings = { twoFactorRequired: false, invitationDomains: [] };

export async function findSignInSettings(db: Db, organizationId: string): Promise<SignInSettings> {
  const row = await db
    .selectFrom('sign_in_settings')
    .select(['two_factor_required', 'invitation_domains'])
    .where('organization_id', '=', organizationId)
    .executeTakeFirst();
  if (!row) return { ...DEFAULT_SIGN_IN_SETTINGS };
  return { twoFactorRequired: fromDbBool(row.two_factor_required), invitationDomains: fromJson<string[]>(row.invitation_domains) ?? [] };
}

export async function storeSignInSettings(trx: Trx, organizationId: string, settings: SignInSettings, now: string): Promise<void> {
  const values = {
    two_factor_required: toDbBool(settings.twoFactorRequired),
    invitation_domains: toJson(settings.invitationDomains),
    updated_at: now,
  };
  await trx
    .insertInto('sign_in_settings')
    .values({ organization_id: organizationId, ...values })
    .onConflict((oc) => oc.column('organization_id').doUpdateSet(values))
    .execute();
}
