import type { Config } from '../../config.js';
import { supportAddress, workspaceUrl } from '../../config.js';
import type { Db, Trx } from '../../db/database.js';
import type { Actor, Workspace } from '../../domain/actor.js';
import { unauthorized } from '../../domain/errors.js';
import { addHours, nowIso } from '../../lib/time.js';
import { isTokenOf, newToken, ONE_TIME_TOKEN_PREFIX, SESSION_TOKEN_PREFIX } from '../../lib/tokens.js';
import { enqueueMessage, expireMessageWith } from '../mail/index.js';
import { insertOneTimeToken, insertSession, redeemOneTimeToken } from './repository.js';

/** A one-time support sign-in link, and the session it yields, last this long. */
export const SUPPORT_SIGN_IN_TTL_HOURS = 1;

/**
 * The effect of a resolved impersonation request (docs/rules.md §6): a single-use sign-in link, valid
 * one hour, mailed to the support address. Redeeming it (redeemSupportSignIn) yields a one-hour
 * session acting as the resolving administrator. Runs in the resolution's transaction. The message
 * keeps the link only while it can be used: its text is replaced once the token is redeemed or expired.
 */
export async function issueSupportSignIn(
  trx: Trx,
  issue: { config: Config; workspace: Workspace; resolver: Actor; reason: string | undefined; now: string },
): Promise<void> {
  const { config, workspace, resolver, reason, now } = issue;
  const token = newToken(ONE_TIME_TOKEN_PREFIX);
  const expiresAt = addHours(now, SUPPORT_SIGN_IN_TTL_HOURS);
  await insertOneTimeToken(trx, { organizationId: workspace.id, userId: resolver.userId, token, expiresAt });
  const base = workspaceUrl(config, workspace.domain);
  await enqueueMessage(trx, {
    organizationId: workspace.id,
    to: supportAddress(config),
    kind: 'supportSignIn',
    subject: `Support sign-in to workspace ${workspace.domain}`,
    // The link is kept in the outbox only while it can be used: see redeemSupportSignIn and the mail worker.
    expiresAt,
    body:
      `${resolver.email} approved your request to sign in to workspace "${workspace.domain}"` +
      `${reason ? ` (reason: ${reason})` : ''}.\n\n` +
      `Sign in, once, before ${expiresAt}:\n${base}/auth/one-time?token=${token}\n\n` +
      `Or with the API: POST ${base}/api/auth/one-time with {"token": "${token}"}; the answer holds a session ` +
      `token, valid one hour, that acts as ${resolver.email}.\n`,
  });
}

const rejected = () => unauthorized('The sign-in link is unknown, used, expired or of another workspace.');

/** Exchanges a one-time token, once, for a support session of its workspace (401 for anything else). */
export async function redeemSupportSignIn(
  db: Db,
  workspace: Workspace,
  token: string,
): Promise<{ email: string; token: string; expiresAt: string }> {
  if (!isTokenOf(ONE_TIME_TOKEN_PREFIX, token)) throw rejected();
  return db.transaction().execute(async (trx) => {
    const now = nowIso();
    const user = await redeemOneTimeToken(trx, workspace.id, token, now);
    if (!user || user.archived) throw rejected();
    // The token is used: the message that carried it keeps no readable copy of it.
    await expireMessageWith(trx, workspace.id, token);
    const sessionToken = newToken(SESSION_TOKEN_PREFIX);
    const expiresAt = addHours(now, SUPPORT_SIGN_IN_TTL_HOURS);
    await insertSession(trx, {
      accountId: user.accountId,
      token: sessionToken,
      expiresAt,
      organizationId: workspace.id,
      userId: user.userId,
    });
    return { email: user.email, token: sessionToken, expiresAt };
  });
}
