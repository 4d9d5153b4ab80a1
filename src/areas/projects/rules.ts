import type { Db } from '../../db/database.js';
import type { Actor } from '../../domain/actor.js';
import { forbidden, notFound } from '../../domain/errors.js';
import { permits, PROJECT_ADMIN_ROLE, type Permission } from '../../domain/policy.js';
import { findProjectWithMembership, type ProjectRow } from './repository.js';

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
  if (!found) throw notFound('project');
  const administers = found.member_role === PROJECT_ADMIN_ROLE;
  const relation = found.member_id === null ? null : administers ? 'admin' : 'member';
  if (!(await permits(actor, 'projects:read', { projectRelation: () => relation }))) throw notFound('project');
  const { member_id: _memberId, member_role: _memberRole, ...project } = found;
  return { project, administers };
}

/**
 * The project when the actor may write what the permission covers, as an admin holding it or as the
 * project's admin: 404 when they cannot see the project, 403 when they only see it.
 */
export async function administeredProject(
  db: Db,
  actor: Actor,
  projectId: string,
  permission: Extract<Permission, 'projects:update' | 'members:write' | 'rates:revenue'>,
): Promise<ProjectRow> {
  const access = await readableProject(db, actor, projectId);
  if (!(await permits(actor, permission, { projectRelation: () => (access.administers ? 'admin' : 'member') }))) {
    throw forbidden('Only administrators and the project\'s admins may do this.');
  }
  return access.project;
}
