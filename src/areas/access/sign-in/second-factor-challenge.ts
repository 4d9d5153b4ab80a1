import type { Db } from '../../../db/database.js';
import { addMinutes, nowIso } from '../../../lib/time.js';
import { hashToken, newToken } from '../../../lib/tokens.js';
import type { SignInMethod } from '../sessions/session-repository.js';
import { findTwoFactor, insertChallenge } from './two-factor/two-factor-repository.js';
import { CHALLENGE_TTL_MINUTES } from './two-factor/two-factor-rules.js';

/** Challenge tokens: `ttc_` and 43 random characters, stored by digest like every token (docs/rules.md §8). */
export const CHALLENGE_TOKEN_PREFIX = 'ttc_';

/**
 * What every password and link sign-in asks first (docs/rules.md §8 Two-factor codes): for an
 * account with 2FA on, a challenge (an opaque token valid CHALLENGE_TTL_MINUTES, for this workspace)
 * to send with a code to POST /auth/two-factor/verify, instead of a session; otherwise nothing.
 */
export async function secondFactorChallenge(
  trx: Db,
  accountId: string,
  organizationId: string,
  method: SignInMethod,
): Promise<{ challenge: string; expiresAt: string } | undefined> {
  const row = await findTwoFactor(trx, accountId);
  if (!row || row.confirmedAt === null) return undefined;
  const challenge = newToken(CHALLENGE_TOKEN_PREFIX);
  const now = nowIso();
  const expiresAt = addMinutes(now, CHALLENGE_TTL_MINUTES);
  await insertChallenge(trx, { tokenHash: hashToken(challenge), accountId, organizationId, method, expiresAt, now });
  return { challenge, expiresAt };
}
