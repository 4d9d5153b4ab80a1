import type { FastifyRequest } from 'fastify';
import type { Db } from '../../db/database.js';
import { forbidden, notFound } from '../../http/errors.js';
import { can, type Permission, type Role } from '../../http/permissions.js';
import { findProjectWithMembership, type ProjectRow } from './repository.js';

/** Who acts, and in which workspace: what every record rule of these areas needs from a request. */
export interface Actor {
  organizationId: string;
  userId: string;
  role: Role;
}

export const actorOf = (request: FastifyRequest): Actor => ({
  organizationId: request.workspace.id,
  userId: request.caller.userId,
  role: request.caller.role,
});

/** A project role that makes a member a "project admin" (decisions §5). */
export const PROJECT_ADMIN_ROLE: Role = 'Administrator';

export interface ProjectAccess {
  project: ProjectRow;
  /** The actor is a project admin: an unarchived member with role Administrator. */
  administers: boolean;
}

/**
 * The project as the actor may see it (decisions §5): an admin sees every project of the workspace,
 * a User those they are an unarchived member of. Anything else, another workspace's id included, is 404.
 */
export async function readableProject(db: Db, actor: Actor, projectId: string): Promise<ProjectAccess> {
  const found = await findProjectWithMembership(db, actor.organizationId, projectId, actor.userId);
  const readsAll = can(actor.role, 'projects:read:all');
  if (!found || (!readsAll && found.member_id === null)) throw notFound('project');
  const { member_id: _memberId, member_role: memberRole, ...project } = found;
  return { project, administers: memberRole === PROJECT_ADMIN_ROLE };
}

/**
 * The project when the actor may write what the permission covers, as an admin holding it or as the
 * project's admin: 404 when they cannot see the project, 403 when they only see it.
 */
export async function administeredProject(
  db: Db,
  actor: Actor,
  projectId: string,
  permission: Extract<Permission, 'projects:update:all' | 'members:write:all' | 'rates:revenue:all'>,
): Promise<ProjectRow> {
  const access = await readableProject(db, actor, projectId);
  if (!access.administers && !can(actor.role, permission)) {
    throw forbidden('Only administrators and the project\'s admins may do this.');
  }
  return access.project;
}
