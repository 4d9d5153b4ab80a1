import type { Buffer } from 'node:buffer';
import type { Db, Trx } from '../../db/database.js';
import { lockRowForWrite } from '../../db/locks.js';
import type { Actor } from '../../domain/actor.js';
import { notFound } from '../../domain/errors.js';
import { recordChange, type ChangeType } from '../changes/index.js';
import { countOtherActiveAdmins, deleteUser, findUser, insertUserRows, listUsersJson, updateUser } from './repository.js';
import { adminRemoval, assertMayUpdate, lastAdmin, userChanges } from './rules.js';
import type { User, UserUpdate } from './schemas.js';

/**
 * The workspace directory as the database renders it (the entries of GET /users), or null when
 * empty. Everyone reads it (users:read). Not async: the listing waits for the query alone.
 */
export function userDirectory(db: Db, actor: Actor): Promise<Buffer | string | null> {
  return listUsersJson(db, actor.organizationId);
}

export async function user(db: Db, actor: Actor, userId: string): Promise<User> {
  const found = await findUser(db, actor.organizationId, userId);
  if (!found) throw notFound('user');
  return found;
}

/**
 * 409 when the change would leave the workspace without an unarchived administrator. Call it after
 * lockRowForWrite on the organization row, so two admins demoting each other at once cannot both pass.
 */
async function assertKeepsAnActiveAdmin(
  trx: Trx,
  organizationId: string,
  target: User,
  after: { role: string; archived: boolean } | 'deleted',
): Promise<void> {
  const removal = adminRemoval(target, after);
  if (removal === undefined) return;
  if ((await countOtherActiveAdmins(trx, organizationId, target.id)) > 0) return;
  throw lastAdmin(removal);
}

/** 404 for an unknown user, then 403 for what the caller may not change (docs/rules.md §5), then the write. */
export async function changeUser(db: Db, actor: Actor, userId: string, body: UserUpdate): Promise<User> {
  const { organizationId } = actor;
  if (!(await findUser(db, organizationId, userId))) throw notFound('user');
  assertMayUpdate(actor, userId, body);
  const changes = userChanges(body);
  return db.transaction().execute(async (trx) => {
    if (changes.role !== undefined || changes.archived !== undefined) {
      await lockRowForWrite(trx, 'organizations', organizationId);
    }
    const target = await findUser(trx, organizationId, userId);
    if (!target) throw notFound('user');
    await assertKeepsAnActiveAdmin(trx, organizationId, target, {
      role: changes.role ?? target.role,
      archived: changes.archived ?? target.archived,
    });
    await updateUser(trx, userId, changes);
    const updated = (await findUser(trx, organizationId, userId))!;
    await recordChange(trx, { organizationId, type: userChangeType(target, updated), actorId: actor.userId, data: updated });
    return updated;
  });
}

/** Archiving and unarchiving have events of their own; any other change is an update (docs/rules.md §6 Change feed). */
function userChangeType(before: User, after: User): ChangeType {
  if (before.archived === after.archived) return 'user.updated';
  return after.archived ? 'user.archived' : 'user.unarchived';
}

/** Removes the user with everything that is theirs in the workspace; the last active administrator stays (409). */
export async function removeUser(db: Db, actor: Actor, userId: string): Promise<void> {
  const { organizationId } = actor;
  await db.transaction().execute(async (trx) => {
    await lockRowForWrite(trx, 'organizations', organizationId);
    const target = await findUser(trx, organizationId, userId);
    if (!target) throw notFound('user');
    await assertKeepsAnActiveAdmin(trx, organizationId, target, 'deleted');
    await deleteUser(trx, userId);
    await recordChange(trx, { organizationId, type: 'user.deleted', actorId: actor.userId, data: target });
  });
}

/**
 * Adds the people an import brings as Users, invited (not yet joined), in the import's transaction
 * (docs/rules.md §6 Imports); the import found or made each one's account.
 */
export const addImportedUsers = (trx: Trx, organizationId: string, users: ReadonlyArray<{ id: string; accountId: string; name: string | null }>): Promise<void> =>
  insertUserRows(trx, organizationId, users);
