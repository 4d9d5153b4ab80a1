import type { Db } from '../../../../db/database.js';
import { fromDbBool } from '../../../../db/values.js';
import { newId } from '../../../../lib/ids.js';
import { nowIso } from '../../../../lib/time.js';
import { hashToken } from '../../../../lib/tokens.js';

/* One-time sign-in tokens: stored by digest, used once, within their lifetime, at their workspace only. */

/** What redeeming a one-time token does (one_time_tokens.purpose). */
export type OneTimePurpose = 'support' | 'sign-in' | 'invitation' | 'password-reset';

/** How many links of these purposes the user holds that still work: neither used nor expired. */
export async function countLiveLinks(db: Db, userId: string, purposes: OneTimePurpose[]): Promise<number> {
  const row = await db
    .selectFrom('one_time_tokens')
    .select((eb) => eb.fn.countAll<number | string>().as('n'))
    .where('user_id', '=', userId)
    .where('purpose', 'in', purposes)
    .where('expires_at', '>', nowIso())
    .where('used_at', 'is', null)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

export async function insertOneTimeToken(
  db: Db,
  token: { organizationId: string; userId: string; token: string; expiresAt: string; purpose: OneTimePurpose },
): Promise<void> {
  await db
    .insertInto('one_time_tokens')
    .values({
      id: newId(),
      organization_id: token.organizationId,
      user_id: token.userId,
      token_hash: hashToken(token.token),
      expires_at: token.expiresAt,
      used_at: null,
      created_at: nowIso(),
      purpose: token.purpose,
    })
    .execute();
}

/**
 * Uses a one-time token of this workspace: one conditional UPDATE (unused, unexpired, this
 * workspace) that only one redemption can win, in either store. Answers the user it acts as, with
 * their account, email and archived flag, when this caller won it.
 */
export async function redeemOneTimeToken(
  db: Db,
  organizationId: string,
  token: string,
  now: string,
): Promise<{ userId: string; accountId: string; email: string; archived: boolean; purpose: OneTimePurpose } | undefined> {
  const tokenHash = hashToken(token);
  const result = await db
    .updateTable('one_time_tokens')
    .set({ used_at: now })
    .where('token_hash', '=', tokenHash)
    .where('organization_id', '=', organizationId)
    .where('used_at', 'is', null)
    .where('expires_at', '>', now)
    .executeTakeFirst();
  if (Number(result.numUpdatedRows) !== 1) return undefined;
  const row = await db
    .selectFrom('one_time_tokens')
    .innerJoin('users', 'users.id', 'one_time_tokens.user_id')
    .innerJoin('accounts', 'accounts.id', 'users.account_id')
    .select(['users.id as user_id', 'users.account_id', 'users.archived', 'accounts.email', 'one_time_tokens.purpose'])
    .where('one_time_tokens.token_hash', '=', tokenHash)
    .executeTakeFirst();
  return (
    row && {
      userId: row.user_id,
      accountId: row.account_id,
      email: row.email,
      archived: fromDbBool(row.archived),
      purpose: row.purpose as OneTimePurpose,
    }
  );
}

/** The purpose of an unused, unexpired one-time token of this workspace, without using it (the link page asks it). */
export async function peekOneTimeToken(db: Db, organizationId: string, token: string, now: string): Promise<OneTimePurpose | undefined> {
  const row = await db
    .selectFrom('one_time_tokens')
    .select('purpose')
    .where('token_hash', '=', hashToken(token))
    .where('organization_id', '=', organizationId)
    .where('used_at', 'is', null)
    .where('expires_at', '>', now)
    .executeTakeFirst();
  return row?.purpose as OneTimePurpose | undefined;
}
