import type { Config } from '../../../../config.js';
import { workspaceUrl } from '../../../../config.js';
import type { Db, Trx } from '../../../../db/database.js';
import type { Workspace } from '../../../../domain/actor.js';
import { invalid } from '../../../../domain/errors.js';
import { isEmail, normalizeEmail } from '../../../../lib/email.js';
import { addHours, nowIso } from '../../../../lib/time.js';
import { LINK_MAILS_PER_ADDRESS_HOUR } from './link-rules.js';
import { hashToken, newToken, ONE_TIME_TOKEN_PREFIX } from '../../../../lib/tokens.js';
import { countRecentServiceMessages, enqueueMessage } from '../../../mail/index.js';
import { countLiveLinks, insertOneTimeToken, type OneTimePurpose } from './one-time-token-repository.js';
import { activeUserOfEmail, workspacesOfAccountEmail } from '../../accounts/index.js';

/** How long each kind of mailed link works (docs/rules.md §7 Links): a sign-in or reset link a quarter of an hour, an invitation a week. */
export const LINK_TTL_HOURS: Record<Exclude<OneTimePurpose, 'support'>, number> = {
  'sign-in': 0.25,
  'password-reset': 0.25,
  invitation: 7 * 24,
};

/** The page a mailed link opens: it shows a button that redeems the token (never a sign-in on a GET alone). */
export const linkPageUrl = (config: Config, domain: string, token: string): string =>
  `${workspaceUrl(config, domain)}/auth/one-time?token=${token}`;

/**
 * A single-use link that signs a user of the workspace in: stored by its digest, valid
 * LINK_TTL_HOURS of its purpose. Runs in the transaction of the message that carries it.
 */
export async function issueSignInLink(
  trx: Trx,
  link: { config: Config; workspace: Workspace; userId: string; purpose: Exclude<OneTimePurpose, 'support'> },
): Promise<{ url: string; expiresAt: string }> {
  const expiresAt = addHours(nowIso(), LINK_TTL_HOURS[link.purpose]);
  const token = await storeOneTimeToken(trx, { organizationId: link.workspace.id, userId: link.userId, expiresAt, purpose: link.purpose });
  return { url: linkPageUrl(link.config, link.workspace.domain, token), expiresAt };
}

/** A new single-use token of the purpose for a user, stored by its digest until expiresAt: the token itself, to be sent once. */
export async function storeOneTimeToken(
  trx: Trx,
  stored: { organizationId: string; userId: string; expiresAt: string; purpose: OneTimePurpose },
): Promise<string> {
  const token = newToken(ONE_TIME_TOKEN_PREFIX);
  await insertOneTimeToken(trx, { ...stored, token });
  return token;
}

/**
 * Links and workspace lists are mailed on anyone's request, so an inbox is not flooded through them
 * (docs/rules.md §7 Links): a person holds at most LINK_MAILS_PER_ADDRESS_HOUR sign-in and reset
 * links that still work (a used or expired one frees its place, so nobody can keep the owner from
 * getting one for longer than a link lives), and an address is mailed as many workspace lists an
 * hour. Past that nothing more is mailed, and the answer does not change.
 */
const hourAgo = () => addHours(nowIso(), -1);

/** The mail of each link, naming the workspace as it is called now (a renamed one by its new name). */
const MAIL: Record<'sign-in' | 'password-reset', { kind: string; subject: (workspace: string) => string; lead: string }> = {
  'sign-in': {
    kind: 'signInLink',
    subject: (workspace) => `Sign in to ${workspace} on timetrack`,
    lead: 'Someone (you, we hope) asked for a link to sign in to',
  },
  'password-reset': {
    kind: 'passwordReset',
    subject: (workspace) => `Reset your password for ${workspace} on timetrack`,
    lead: 'Someone (you, we hope) asked to reset the password you use for',
  },
};

/**
 * POST /auth/email-link and /auth/password-reset (docs/rules.md §7 No enumeration): when the email
 * is an unarchived user of the workspace, mails a single-use link of the purpose; otherwise nothing.
 * The caller cannot tell which: the answer is the same, and the token is made and hashed either way
 * (the route also holds its answer to a fixed minimum time).
 */
export async function mailSignInLink(
  db: Db,
  config: Config,
  workspace: Workspace,
  email: string,
  purpose: 'sign-in' | 'password-reset',
): Promise<void> {
  const user = await activeUserOfEmail(db, workspace.id, email);
  if (!user) {
    // The same work as a known address's link, whose token is hashed as it is stored.
    hashToken(newToken(ONE_TIME_TOKEN_PREFIX));
    return;
  }
  const mail = MAIL[purpose];
  if ((await countLiveLinks(db, user.userId, ['sign-in', 'password-reset'])) >= LINK_MAILS_PER_ADDRESS_HOUR) return;
  await db.transaction().execute(async (trx) => {
    const name = user.workspaceName;
    const { url, expiresAt } = await issueSignInLink(trx, { config, workspace, userId: user.userId, purpose });
    await enqueueMessage(trx, {
      organizationId: workspace.id,
      to: normalizeEmail(email),
      kind: mail.kind,
      subject: mail.subject(name),
      expiresAt,
      body:
        `${mail.lead} the workspace "${name}" on timetrack:\n${workspaceUrl(config, workspace.domain)}/\n\n` +
        `Open this link, once, before ${expiresAt}:\n${url}\n\n` +
        'If it was not you, ignore this message: nothing happens without the link.\n',
    });
  });
}

/**
 * POST /auth/find-workspaces (docs/rules.md §7 Finding one's workspace): mails the address the
 * workspaces where it is an unarchived user, each with its address; nothing when there are none.
 */
export async function mailWorkspaceList(db: Db, config: Config, email: string): Promise<void> {
  const workspaces = await workspacesOfAccountEmail(db, email);
  if (workspaces.length === 0) return;
  const to = normalizeEmail(email);
  const listsThisHour = await countRecentServiceMessages(db, { address: to, kinds: ['workspaceList'], since: hourAgo() });
  if (listsThisHour >= LINK_MAILS_PER_ADDRESS_HOUR) return;
  await enqueueMessage(db, {
    organizationId: null,
    to,
    kind: 'workspaceList',
    subject: 'Your timetrack workspaces',
    body:
      'Someone (you, we hope) asked which timetrack workspaces this address belongs to:\n\n' +
      workspaces.map((ws) => `- ${ws.name}: ${workspaceUrl(config, ws.domain)}/`).join('\n') +
      '\n\nOpen one to sign in.\n',
  });
}

function emailOf(text: string): string {
  const email = normalizeEmail(text);
  if (!isEmail(email)) throw invalid('/body/email', 'must be an email address');
  return email;
}

/** POST /auth/email-link and /auth/password-reset, the address checked first: see mailSignInLink. */
export async function requestLink(db: Db, config: Config, workspace: Workspace, email: string, purpose: 'sign-in' | 'password-reset'): Promise<void> {
  await mailSignInLink(db, config, workspace, emailOf(email), purpose);
}

/** POST /auth/find-workspaces: see mailWorkspaceList. */
export async function requestWorkspaceList(db: Db, config: Config, email: string): Promise<void> {
  await mailWorkspaceList(db, config, emailOf(email));
}
