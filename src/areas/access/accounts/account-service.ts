import type { Db } from '../../../db/database.js';
import type { Actor, Role, Workspace } from '../../../domain/actor.js';
import { findActiveUserByEmail, findOrCreateAccount, workspacesOfEmail } from './account-repository.js';

/** Who is calling (GET /auth): the workspace's domain, the caller's email, the bearer token in use, and the caller's user id and role here. */
export function authSnapshot(
  actor: Actor,
  workspace: Workspace,
): { domain: string; email: string; token: string; userId: string; role: Role } {
  return { domain: workspace.domain, email: actor.email, token: actor.token, userId: actor.userId, role: actor.role };
}

/**
 * The account of an email (case-insensitive), made when it has none: an invitation, a new
 * workspace's first administrator and a single sign-on each begin with it. One account per person,
 * shared by every workspace the person is a user of.
 */
export function accountOfEmail(db: Db, email: string): Promise<string> {
  return findOrCreateAccount(db, email);
}

/** The unarchived user of an email in a workspace, with the account's password digest: who a link or a password may sign in there. */
export function activeUserOfEmail(db: Db, organizationId: string, email: string): ReturnType<typeof findActiveUserByEmail> {
  return findActiveUserByEmail(db, organizationId, email);
}

/** The workspaces where an email has an unarchived user, oldest first (the list a person asks to be mailed). */
export function workspacesOfAccountEmail(db: Db, email: string): Promise<{ domain: string; name: string }[]> {
  return workspacesOfEmail(db, email);
}
