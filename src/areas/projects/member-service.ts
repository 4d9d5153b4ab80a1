import type { Db } from '../../db/database.js';
import { withConstraintProblems } from '../../db/errors.js';
import type { Actor } from '../../domain/actor.js';
import { conflict, forbidden, invalid, notFound } from '../../domain/errors.js';
import { SUPPORT_SESSION_DENIED, tokenKindAllows } from '../../domain/policy.js';
import { nowIso } from '../../lib/time.js';
import { recordChange } from '../changes/index.js';
import { isJoinableUser } from './membership.js';
import { deleteMember, insertMember, listMembers, selectMember, updateMember, type MemberChanges, type NewMember } from './repository.js';
import type { MemberCreate, MemberUpdate, ProjectMember } from './schemas.js';
import { administeredProject, readableProject } from './service.js';

const unusableUser = () => invalid('/body/userId', 'must name an unarchived user of this workspace');

export async function projectMembers(db: Db, actor: Actor, projectId: string): Promise<ProjectMember[]> {
  const { project } = await readableProject(db, actor, projectId);
  return listMembers(db, actor.organizationId, project.id);
}

export async function projectMember(db: Db, actor: Actor, projectId: string, memberId: string): Promise<ProjectMember> {
  const { project } = await readableProject(db, actor, projectId);
  const member = await selectMember(db, actor.organizationId, project.id, memberId);
  if (!member) throw notFound('project member');
  return member;
}

/** Adds an unarchived user of the workspace to the project, assigned by the actor. */
export async function addProjectMember(db: Db, actor: Actor, projectId: string, body: MemberCreate): Promise<ProjectMember> {
  const { organizationId } = actor;
  // Making a member the project's Administrator grants a role: never with a support session (docs/rules.md §5).
  if (body.role === 'Administrator' && !tokenKindAllows(actor.tokenKind, 'roles:grant')) throw forbidden(SUPPORT_SESSION_DENIED);
  const project = await administeredProject(db, actor, projectId, 'members:write');
  if (!(await isJoinableUser(db, organizationId, body.userId))) throw unusableUser();
  const member: NewMember = {
    organizationId,
    projectId: project.id,
    userId: body.userId,
    role: body.role ?? 'User',
    assignedBy: actor.userId,
    title: body.title?.trim() ?? null,
    notes: body.notes ?? null,
    tags: body.tags ?? null,
  };
  return withConstraintProblems(
    () =>
      db.transaction().execute(async (trx) => {
        const id = await insertMember(trx, member, nowIso());
        const added = (await selectMember(trx, organizationId, project.id, id))!;
        await recordChange(trx, { organizationId, type: 'member.added', actorId: actor.userId, data: added });
        return added;
      }),
    {
      // project_members_one_per_user decides, also between two concurrent additions.
      unique: () => conflict('The user is already a member of this project.'),
      // The user or the project was deleted in the meantime.
      foreignKey: unusableUser,
    },
  );
}

export async function changeProjectMember(
  db: Db,
  actor: Actor,
  projectId: string,
  memberId: string,
  body: MemberUpdate,
): Promise<ProjectMember> {
  // Changing a member's project role grants or takes one: never with a support session (docs/rules.md §5).
  if (body.role !== undefined && !tokenKindAllows(actor.tokenKind, 'roles:grant')) throw forbidden(SUPPORT_SESSION_DENIED);
  const project = await administeredProject(db, actor, projectId, 'members:write');
  const member = await selectMember(db, actor.organizationId, project.id, memberId);
  if (!member) throw notFound('project member');
  const changes: MemberChanges = {};
  if (body.role !== undefined) changes.role = body.role;
  if (body.title !== undefined) changes.title = body.title.trim();
  if (body.notes !== undefined) changes.notes = body.notes;
  if (body.tags !== undefined) changes.tags = body.tags;
  // null reads as false.
  if (body.archived !== undefined) changes.archived = body.archived === true;
  const { organizationId } = actor;
  return db.transaction().execute(async (trx) => {
    await updateMember(trx, organizationId, member.id, changes);
    const updated = await selectMember(trx, organizationId, project.id, member.id);
    if (!updated) throw notFound('project member');
    await recordChange(trx, { organizationId, type: 'member.updated', actorId: actor.userId, data: updated });
    return updated;
  });
}

export async function removeProjectMember(db: Db, actor: Actor, projectId: string, memberId: string): Promise<void> {
  const project = await administeredProject(db, actor, projectId, 'members:write');
  const { organizationId } = actor;
  await db.transaction().execute(async (trx) => {
    const member = await selectMember(trx, organizationId, project.id, memberId);
    if (!member || !(await deleteMember(trx, organizationId, project.id, memberId))) throw notFound('project member');
    await recordChange(trx, { organizationId, type: 'member.removed', actorId: actor.userId, data: member });
  });
}
