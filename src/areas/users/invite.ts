import type { FastifyInstance } from 'fastify';
import type { Db } from '../../db/database.js';
import { isUniqueViolation } from '../../db/errors.js';
import { invalid } from '../../domain/errors.js';
import { isEmail, normalizeEmail } from '../../lib/email.js';
import { cleanName } from '../../lib/names.js';
import { workspaceUrl } from '../../config.js';
import type { Actor } from '../../domain/actor.js';
import type { Workspace } from '../../domain/actor.js';
import { findOrCreateAccount } from '../access/index.js';
import { enqueueMessage } from '../mail/index.js';
import { createUser, findUser, findUserByAccount, toUser } from './repository.js';
import type { User, UserInvite } from './schemas.js';

/** Attempts of the invitation transaction when a concurrent invitation of the same email wins a unique index. */
const ATTEMPTS = 3;

/**
 * Invites an email into the workspace: finds or creates the account, and the user unless the
 * account already has one here (then that user is answered as it is: re-invited, never duplicated).
 * Every invitation writes an `invitation` message in the same transaction. Two concurrent
 * invitations of one email meet at the unique indexes (accounts.email, users(organization, account));
 * the loser retries and finds the winner's user.
 */
export async function inviteUser(app: FastifyInstance, workspace: Workspace, inviter: Actor, body: UserInvite): Promise<User> {
  const email = normalizeEmail(body.email);
  if (!isEmail(email)) throw invalid('/body/email', 'must be an email address');
  const name = body.name !== undefined ? cleanName(body.name, '/body/name') : null;
  const title = body.title?.trim() || null;
  for (let attempt = 1; ; attempt++) {
    try {
      return await app.db.transaction().execute(async (trx) => {
        const accountId = await findOrCreateAccount(trx, email);
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
        await enqueueInvitation(trx, app, workspace, inviter, email, user.name);
        return toUser(user);
      });
    } catch (error) {
      if (attempt < ATTEMPTS && isUniqueViolation(error)) continue;
      throw error;
    }
  }
}

async function enqueueInvitation(
  db: Db,
  app: FastifyInstance,
  workspace: Workspace,
  inviter: Actor,
  email: string,
  name: string | null,
): Promise<void> {
  const organization = await db
    .selectFrom('organizations')
    .select('name')
    .where('id', '=', workspace.id)
    .executeTakeFirstOrThrow();
  const inviterRow = await db.selectFrom('users').select('name').where('id', '=', inviter.userId).executeTakeFirst();
  const from = inviterRow?.name ?? inviter.email;
  // Links come from PUBLIC_URL / BASE_DOMAIN, never from the request's Host (decisions §2).
  const url = `${workspaceUrl(app.config, workspace.domain)}/`;
  await enqueueMessage(db, {
    organizationId: workspace.id,
    to: email,
    kind: 'invitation',
    subject: `${from} invited you to ${organization.name} on timetrack`,
    body: [
      name ? `Hello ${name},` : 'Hello,',
      '',
      `${from} invited you to the workspace "${organization.name}" on timetrack.`,
      '',
      'Open the workspace here:',
      url,
      '',
      `Sign in with this email address: ${email}`,
      '',
    ].join('\n'),
  });
}
