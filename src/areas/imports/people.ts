import type { Config } from '../../config.js';
import { workspaceUrl } from '../../config.js';
import type { Trx } from '../../db/database.js';
import type { Workspace } from '../../domain/actor.js';
import { accountOfEmail, issueSignInLink } from '../access/index.js';
import { enqueueMessage } from '../mail/index.js';
import { addImportedUsers } from '../users/index.js';

/**
 * The people an import brings join as Users (docs/rules.md §6 Imports): each email's account found or
 * made, the user added invited; with `invite`, each is mailed a sign-in link, in the same transaction.
 */
export async function addImportedPeople(
  trx: Trx,
  added: { workspace: Workspace; config: Config; users: ReadonlyArray<{ id: string; email: string; name: string | null }>; invite: boolean },
): Promise<void> {
  const { workspace, config, users, invite } = added;
  const rows = [];
  for (const user of users) rows.push({ id: user.id, accountId: await accountOfEmail(trx, user.email), name: user.name });
  await addImportedUsers(trx, workspace.id, rows);
  if (!invite) return;
  for (const user of users) {
    // A single-use link, valid a week (docs/rules.md §7 Links), as an invitation's.
    const link = await issueSignInLink(trx, { config, workspace, userId: user.id, purpose: 'invitation' });
    await enqueueMessage(trx, {
      organizationId: workspace.id,
      to: user.email,
      kind: 'invitation',
      subject: `Your time was imported into ${workspace.domain} on timetrack`,
      body: [
        user.name ? `Hello ${user.name},` : 'Hello,',
        '',
        `Your time entries were imported into the workspace ${workspace.domain} on timetrack.`,
        '',
        `Sign in, once, before ${link.expiresAt}:`,
        link.url,
        '',
        'Afterwards, open the workspace here and sign in with this email address:',
        `${workspaceUrl(config, workspace.domain)}/`,
      ].join('\n'),
    });
  }
}
