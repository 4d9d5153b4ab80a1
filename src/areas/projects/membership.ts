import type { Trx } from '../../db/database.js';
import { lockRowForWrite } from '../../db/locks.js';
import { nowIso } from '../../lib/time.js';
import {
  findMember,
  findWorkspaceUser,
  insertMemberUnlessPresent,
  projectOfWorkspaceExists,
  updateMember,
  type NewMember,
} from './repository.js';

/**
 * Memberships changed by other areas (a resolved request), inside their transaction. The routes of
 * this area add members through the same row builder (newMemberRow, in the repository).
 */

/** Makes the user a member unless they already are one (an existing membership stays as it is). */
export async function addMember(trx: Trx, member: NewMember, now = nowIso()): Promise<void> {
  await insertMemberUnlessPresent(trx, member, now);
}

/** Gives a member another project role; false when the member no longer exists. */
export async function setMemberRole(trx: Trx, organizationId: string, projectId: string, memberId: string, role: NewMember['role']): Promise<boolean> {
  const member = await findMember(trx, organizationId, projectId, memberId);
  if (!member) return false;
  await updateMember(trx, organizationId, member.id, { role });
  return true;
}

/** Whether the project is (still) one of this workspace; its row is held for the rest of the transaction. */
export async function holdProject(trx: Trx, organizationId: string, projectId: string): Promise<boolean> {
  if (!(await lockRowForWrite(trx, 'projects', projectId))) return false;
  return projectOfWorkspaceExists(trx, organizationId, projectId);
}

/**
 * Whether the user may still join a project: of this workspace and unarchived. Their row is held for
 * the rest of the transaction, so they cannot be deleted before the membership is written.
 */
export async function holdJoinableUser(trx: Trx, organizationId: string, userId: string): Promise<boolean> {
  if (!(await lockRowForWrite(trx, 'users', userId))) return false;
  const user = await findWorkspaceUser(trx, organizationId, userId);
  return user !== undefined && !user.archived;
}
