import type { Config } from '../../config.js';
import { workspaceUrl } from '../../config.js';
import type { Db, Trx } from '../../db/database.js';
import { rerunAfterUniqueRace } from '../../db/errors.js';
import type { Actor, Workspace } from '../../domain/actor.js';
import { forbidden, invalid } from '../../domain/errors.js';
import { actorHolds, SUPPORT_SESSION_DENIED } from '../../domain/policy.js';
import { isEmail, normalizeEmail } from '../../lib/email.js';
import { cleanName } from '../../lib/names.js';
import { accountOfEmail, issueSignInLink } from '../access/index.js';
import { recordChange } from '../changes/index.js';
import { enqueueMessage } from '../mail/index.js';
import { createUser, findUser, findUserByAccount, workspaceNameOf } from './repository.js';
import type { User, UserInvite } from './schemas.js';

/** Attempts of the invitation transaction when a concurrent invitation of the same email wins a unique index. */
const ATTEMPTS = 3;

/**
 * Invites an email into the workspace: finds or creates the account, and the user unless the
 * account already has one here (then that user is answered as it is: re-invited, never duplicated).
 * Every invitation writes an `invitation` message in the same transaction. Two concurrent
 * invitations of one email meet at the unique indexes (accounts.email, users(organization, account));
 * the loser runs its transaction again and finds the winner's user, so a unique violation here is
 * a reason to retry, not a problem to answer.
 */
export async function inviteUser(db: Db, inviter: Actor, workspace: Workspace, config: Config, body: UserInvite): Promise<User> {
  // Inviting an Administrator grants a role (docs/rules.md §5): a support session may not.
  if (body.role === 'Administrator' && !actorHolds(inviter, 'roles:grant')) throw forbidden(SUPPORT_SESSION_DENIED);
  const email = normalizeEmail(body.email);
  if (!isEmail(email)) throw invalid('/body/email', 'must be an email address');
  const name = body.name !== undefined ? cleanName(body.name, '/body/name') : null;
  const title = body.title?.trim() || null;
  const invite = () =>
    db.transaction().execute(async (trx) => {
      const accountId = await accountOfEmail(trx, email);
      let user = await findUserByAccount(trx, workspace.id, accountId);
      if (!user) {
        const userId = await createUser(trx, {
          organizationId: workspace.id,
          accountId,
          role: body.role ?? 'User',
          name,
          title,
        });
        user = (await findUser(trx, workspace.id, userId))!;
      }
      await enqueueInvitation(trx, { config, workspace, inviter, email, name: user.name ?? null, userId: user.id });
      // Every invitation is one, a repeated one too (docs/rules.md §6 Change feed).
      await recordChange(trx, { organizationId: workspace.id, type: 'user.invited', actorId: inviter.userId, data: user });
      return user;
    });
  return rerunAfterUniqueRace(invite, ATTEMPTS);
}

async function enqueueInvitation(
  trx: Trx,
  invitation: { config: Config; workspace: Workspace; inviter: Actor; email: string; name: string | null; userId: string },
): Promise<void> {
  const { config, workspace, inviter, email, name, userId } = invitation;
  const workspaceName = await workspaceNameOf(trx, workspace.id);
  const from = (await findUser(trx, workspace.id, inviter.userId))?.name ?? inviter.email;
  // Links come from PUBLIC_URL / BASE_DOMAIN, never from the request's Host (docs/rules.md §2).
  const url = `${workspaceUrl(config, workspace.domain)}/`;
  // The first click signs the person in (docs/rules.md §7 Links): a single-use link, valid a week.
  const link = await issueSignInLink(trx, { config, workspace, userId, purpose: 'invitation' });
  await enqueueMessage(trx, {
    organizationId: workspace.id,
    to: email,
    kind: 'invitation',
    subject: `${from} invited you to ${workspaceName} on timetrack`,
    body: [
      name ? `Hello ${name},` : 'Hello,',
      '',
      `${from} invited you to the workspace "${workspaceName}" on timetrack.`,
      '',
      `Sign in, once, before ${link.expiresAt}:`,
      link.url,
      '',
      'Afterwards, open the workspace here and sign in with this email address:',
      url,
      email,
      '',
    ].join('\n'),
    // The link is kept in the outbox only while it can be used (docs/rules.md §6 Mail).
    expiresAt: link.expiresAt,
  });
}
