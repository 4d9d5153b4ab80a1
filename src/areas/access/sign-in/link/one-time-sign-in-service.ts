import type { Config } from '../../../../config.js';
import type { Db } from '../../../../db/database.js';
import type { Workspace } from '../../../../domain/actor.js';
import { unauthorized } from '../../../../domain/errors.js';
import { nowIso } from '../../../../lib/time.js';
import { isTokenOf, ONE_TIME_TOKEN_PREFIX } from '../../../../lib/tokens.js';
import { expireMessageWith } from '../../../mail/index.js';
import { completeSignIn, type SecondFactorRequired, type SignedIn, type SignInContext } from '../sign-in-flow.js';
import { peekOneTimeToken, redeemOneTimeToken, type OneTimePurpose } from './one-time-token-repository.js';
import type { SignInMethod } from '../../sessions/index.js';
import { SUPPORT_SIGN_IN_TTL_HOURS } from '../../support/index.js';

const rejected = () => unauthorized('The sign-in link is unknown, used, expired or of another workspace.');

/** The session each kind of link begins (sessions.method). */
const METHOD: Record<OneTimePurpose, SignInMethod> = {
  support: 'support',
  'sign-in': 'link',
  invitation: 'invitation',
  'password-reset': 'password-reset',
};

/**
 * Exchanges a one-time token, once, for a session at its workspace (401 for anything else: a second
 * use, expired, unknown, malformed, another workspace's, or a user archived since). The token's
 * purpose decides the session: a support link acts as the resolving administrator for one hour
 * (docs/rules.md §5); a person's sign-in, invitation or password-reset link signs the person in
 * (docs/rules.md §7), or answers a second-factor challenge first when the account has 2FA on (docs/rules.md §8).
 * The message that carried the token keeps no readable copy of it afterwards.
 */
export async function redeemOneTimeSignIn(
  db: Db,
  config: Config,
  workspace: Workspace,
  token: string,
  context: SignInContext,
): Promise<(SignedIn | SecondFactorRequired) & { email: string; accountId: string; purpose: OneTimePurpose }> {
  if (!isTokenOf(ONE_TIME_TOKEN_PREFIX, token)) throw rejected();
  return db.transaction().execute(async (trx) => {
    const user = await redeemOneTimeToken(trx, workspace.id, token, nowIso());
    if (!user || user.archived) throw rejected();
    await expireMessageWith(trx, workspace.id, token);
    const support = user.purpose === 'support';
    const signedIn = await completeSignIn(
      trx,
      config,
      {
        accountId: user.accountId,
        workspace,
        method: METHOD[user.purpose],
        ...(support ? { actingAsUserId: user.userId, ttlHours: SUPPORT_SIGN_IN_TTL_HOURS } : {}),
      },
      context,
    );
    return { ...signedIn, email: user.email, accountId: user.accountId, purpose: user.purpose };
  });
}

/** What an unused one-time token of this workspace is for, without using it (the link page shows the right form); undefined when it cannot be used. */
export async function oneTimePurpose(db: Db, workspace: Workspace, token: string): Promise<OneTimePurpose | undefined> {
  if (!isTokenOf(ONE_TIME_TOKEN_PREFIX, token)) return undefined;
  return peekOneTimeToken(db, workspace.id, token, nowIso());
}
