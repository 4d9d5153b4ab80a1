import type { Db, Trx } from '../../db/database.js';
import { lockRowForWrite } from '../../db/locks.js';
import { nowIso } from '../../lib/time.js';
import { recordChange } from '../changes/index.js';
import { findWorkspaceUser, insertMemberUnlessPresent, selectMember, selectProjectExists, updateMember, type NewMember } from './repository.js';
import type { ProjectMember } from './schemas.js';

/**
 * Memberships as other areas use them: read (a revenue rate's member, a role-change request's) and
 * changed inside their transaction (a resolved request). The routes of this area add members
 * through the same row builder (newMemberRow, in the repository).
 */

/** The project's member with this id, if the workspace has it. */
export function findMember(db: Db, organizationId: string, projectId: string, memberId: string): Promise<ProjectMember | undefined> {
  return selectMember(db, organizationId, projectId, memberId);
}

/** Whether the user may join a project: a user of this workspace, unarchived. */
export async function isJoinableUser(db: Db, organizationId: string, userId: string): Promise<boolean> {
  const user = await findWorkspaceUser(db, organizationId, userId);
  return user !== undefined && !user.archived;
}

/** Makes the user a member unless they already are one (an existing membership stays as it is). */
export async function addMember(trx: Trx, member: NewMember, now = nowIso()): Promise<void> {
  const id = await insertMemberUnlessPresent(trx, member, now);
  if (id === undefined) return;
  const added = await selectMember(trx, member.organizationId, member.projectId, id);
  if (added) await recordChange(trx, { organizationId: member.organizationId, type: 'member.added', actorId: member.assignedBy, data: added });
}

/** Gives a member another project role, as the actor; false when the member no longer exists. */
export async function setMemberRole(
  trx: Trx,
  change: { organizationId: string; projectId: string; memberId: string; role: NewMember['role']; actorId: string },
): Promise<boolean> {
  const { organizationId, projectId, memberId, role } = change;
  const member = await selectMember(trx, organizationId, projectId, memberId);
  if (!member) return false;
  await updateMember(trx, organizationId, member.id, { role });
  await recordChange(trx, { organizationId, type: 'member.updated', actorId: change.actorId, data: { ...member, role } });
  return true;
}

/** Whether the project is (still) one of this workspace; its row is held for the rest of the transaction. */
export async function holdProject(trx: Trx, organizationId: string, projectId: string): Promise<boolean> {
  if (!(await lockRowForWrite(trx, 'projects', projectId))) return false;
  return selectProjectExists(trx, organizationId, projectId);
}

/**
 * Whether the user may still join a project: of this workspace and unarchived. Their row is held for
 * the rest of the transaction, so they cannot be deleted before the membership is written.
 */
export async function holdJoinableUser(trx: Trx, organizationId: string, userId: string): Promise<boolean> {
  if (!(await lockRowForWrite(trx, 'users', userId))) return false;
  return isJoinableUser(trx, organizationId, userId);
}
