import type { Db } from '../../../db/database.js';
import type { Actor, Role, Workspace } from '../../../domain/actor.js';
import { findOrCreateAccount } from './account-repository.js';

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
