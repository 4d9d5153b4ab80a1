import type { Db, Trx } from '../../db/database.js';
import { recordChange } from '../changes/index.js';
import { nowIso } from '../../lib/time.js';
import { createUser, findUser, findUserIdByEmail, markJoined } from './repository.js';

/** Whether an email is a user of the workspace already, and whether that place is archived. */
export const workspaceUserOfEmail = (db: Db, organizationId: string, email: string) => findUserIdByEmail(db, organizationId, email);

/**
 * A person single sign-on lets into a workspace that invites their email domain becomes a User
 * there (docs/rules.md §8 Single sign-on), and the feed says so with `user.joined`, acted by the new
 * user (docs/rules.md §6 Change feed). Runs in the sign-in's transaction.
 */
export async function joinBySingleSignOn(trx: Trx, join: { organizationId: string; accountId: string; name: string | null }): Promise<string> {
  const userId = await createUser(trx, { organizationId: join.organizationId, accountId: join.accountId, role: 'User', name: join.name, joinedAt: nowIso() });
  const user = (await findUser(trx, join.organizationId, userId))!;
  await recordChange(trx, { organizationId: join.organizationId, type: 'user.joined', actorId: userId, data: user });
  return userId;
}

/**
 * The first administrator of a new workspace, made with it. No event: the workspace's feed begins
 * after its creation, which no webhook or reader of the feed can have watched.
 */
export const addFirstAdministrator = (trx: Trx, admin: { organizationId: string; accountId: string; name: string | null }): Promise<string> =>
  createUser(trx, { ...admin, role: 'Administrator', joinedAt: nowIso() });

/**
 * A session begins for an account at a workspace's host: its user there, if still invited, is
 * joined now (docs/rules.md §6 Users), and the feed says so with `user.joined`, acted by that user.
 * Runs in the sign-in's transaction; a user joined already (or no user here) changes nothing.
 */
export async function joinOnSignIn(trx: Trx, signIn: { organizationId: string; accountId: string }): Promise<void> {
  const userId = await markJoined(trx, signIn.organizationId, signIn.accountId);
  if (userId === undefined) return;
  const user = (await findUser(trx, signIn.organizationId, userId))!;
  await recordChange(trx, { organizationId: signIn.organizationId, type: 'user.joined', actorId: userId, data: user });
}
