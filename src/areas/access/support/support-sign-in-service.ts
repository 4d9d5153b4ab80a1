import type { Config } from '../../../config.js';
import { supportAddress, workspaceUrl } from '../../../config.js';
import type { Trx } from '../../../db/database.js';
import type { Actor, Workspace } from '../../../domain/actor.js';
import { addHours } from '../../../lib/time.js';
import { enqueueMessage } from '../../mail/index.js';
import { storeOneTimeToken } from '../sign-in/link/index.js';

/** A one-time support sign-in link, and the session it yields, last this long. */
export const SUPPORT_SIGN_IN_TTL_HOURS = 1;

/**
 * The effect of a resolved impersonation request (docs/rules.md §6): a single-use sign-in link, valid
 * one hour, mailed to the support address. Redeeming it (redeemOneTimeSignIn) yields a one-hour
 * session acting as the resolving administrator. Runs in the resolution's transaction. The message
 * keeps the link only while it can be used: its text is replaced once the token is redeemed or expired.
 */
export async function issueSupportSignIn(
  trx: Trx,
  issue: { config: Config; workspace: Workspace; resolver: Actor; reason: string | undefined; now: string },
): Promise<void> {
  const { config, workspace, resolver, reason, now } = issue;
  const expiresAt = addHours(now, SUPPORT_SIGN_IN_TTL_HOURS);
  const token = await storeOneTimeToken(trx, { organizationId: workspace.id, userId: resolver.userId, expiresAt, purpose: 'support' });
  const base = workspaceUrl(config, workspace.domain);
  await enqueueMessage(trx, {
    organizationId: workspace.id,
    to: supportAddress(config),
    kind: 'supportSignIn',
    subject: `Support sign-in to workspace ${workspace.domain}`,
    // The link is kept in the outbox only while it can be used: see redeemOneTimeSignIn and the mail worker.
    expiresAt,
    body:
      `${resolver.email} approved your request to sign in to workspace "${workspace.domain}"` +
      `${reason ? ` (reason: ${reason})` : ''}.\n\n` +
      `Sign in, once, before ${expiresAt}:\n${base}/auth/one-time?token=${token}\n\n` +
      `Or with the API: POST ${base}/api/auth/one-time with {"token": "${token}"}; the answer holds a session ` +
      `token, valid one hour, that acts as ${resolver.email}.\n`,
  });
}
