import type { Buffer } from 'node:buffer';
import type { Db, Trx } from '../../db/database.js';
import { withConstraintProblems } from '../../db/errors.js';
import type { Actor } from '../../domain/actor.js';
import { conflict, forbidden, notFound } from '../../domain/errors.js';
import { permits, readerScope, type Permission } from '../../domain/policy.js';
import { PROJECT_ADMIN_ROLE } from '../../lib/project-roles.js';
import { nowIso } from '../../lib/time.js';
import { recordChange, type ChangeType } from '../changes/index.js';
import { assertClientForProject } from '../clients/index.js';
import {
  countProjects,
  deleteProject,
  selectMember,
  findProject,
  findProjectWithMembership,
  insertMember,
  insertMemberRows,
  insertProject,
  insertProjectRows,
  listProjectsJson,
  selectProjectExists,
  selectProjectForBooking,
  updateProject,
  type ProjectChanges,
  type ProjectForBooking,
} from './repository.js';
import { defaultProjectColor, trimmedName } from './rules.js';
import type { Project, ProjectCreate, ProjectUpdate } from './schemas.js';

export type { ProjectForBooking } from './repository.js';

const nameTaken = (name: string) => conflict(`A project named "${name}" already exists in this workspace.`);

export interface ProjectAccess {
  project: Project;
  /** The actor is a project admin: an unarchived member with role Administrator. */
  administers: boolean;
}

/**
 * The project as the actor may see it (docs/rules.md §5): an admin sees every project of the workspace,
 * a User those they are an unarchived member of. Anything else, another workspace's id included, is 404.
 */
export async function readableProject(db: Db, actor: Actor, projectId: string): Promise<ProjectAccess> {
  const found = await findProjectWithMembership(db, actor.organizationId, projectId, actor.userId);
  if (!found) throw notFound('project');
  const administers = found.memberRole === PROJECT_ADMIN_ROLE;
  const relation = found.memberId === null ? null : administers ? 'admin' : 'member';
  if (!permits(actor, 'projects:read', { projectRelation: relation })) throw notFound('project');
  return { project: found.project, administers };
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
): Promise<Project> {
  const access = await readableProject(db, actor, projectId);
  if (!permits(actor, permission, { projectRelation: access.administers ? 'admin' : 'member' })) {
    throw forbidden('Only administrators and the project\'s admins may do this.');
  }
  return access.project;
}

/**
 * What booking time on the project needs, in the booking's transaction (on PostgreSQL the project
 * row stays held until it commits). Every write of time asks it: no await of its own.
 */
export function findProjectForBooking(trx: Trx, organizationId: string, projectId: string, userId: string): Promise<ProjectForBooking | undefined> {
  return selectProjectForBooking(trx, organizationId, projectId, userId);
}

/** Whether the workspace has the project. */
export function projectOfWorkspaceExists(db: Db, organizationId: string, projectId: string): Promise<boolean> {
  return selectProjectExists(db, organizationId, projectId);
}

/**
 * GET /projects as the database renders it: every project for a reader who reaches all, otherwise
 * those the reader is an unarchived member of. Not async: a listing adds no await of its own.
 */
export function projectListing(db: Db, actor: Actor): Promise<Buffer | string | null> {
  const scope = readerScope(actor, 'projects:read');
  return listProjectsJson(db, actor.organizationId, scope.all ? undefined : scope.userId);
}

export async function project(db: Db, actor: Actor, projectId: string): Promise<Project> {
  return (await readableProject(db, actor, projectId)).project;
}

/**
 * A new project, with its creator as its first member (role Administrator), in one transaction.
 * Without a color it takes the palette's by the number of projects the workspace has (docs/rules.md §6 Projects).
 */
export async function createProject(db: Db, actor: Actor, body: ProjectCreate): Promise<Project> {
  const name = trimmedName(body.name);
  const now = nowIso();
  const { organizationId, userId } = actor;
  const clientId = body.clientId ?? null;
  return withConstraintProblems(
    () =>
      db.transaction().execute(async (trx) => {
        if (clientId !== null) await assertClientForProject(trx, organizationId, clientId);
        const color = body.color ?? defaultProjectColor(await countProjects(trx, organizationId));
        const projectId = await insertProject(
          trx,
          organizationId,
          { name, billable: body.billable ?? false, avatar: body.avatar ?? null, notes: body.notes ?? null, clientId, color },
          now,
        );
        const memberId = await insertMember(trx, { organizationId, projectId, userId, role: PROJECT_ADMIN_ROLE, assignedBy: userId }, now);
        const created = (await findProject(trx, organizationId, projectId))!;
        await recordChange(trx, { organizationId, type: 'project.created', actorId: userId, data: created });
        const member = (await selectMember(trx, organizationId, projectId, memberId))!;
        await recordChange(trx, { organizationId, type: 'member.added', actorId: userId, data: member });
        return created;
      }),
    // projects_name_unique decides under concurrency: two creations of one name cannot both commit.
    { unique: () => nameTaken(name) },
  );
}

/** Archiving and unarchiving have events of their own; any other change is an update (docs/rules.md §6 Change feed). */
function projectChangeType(before: Project, changes: ProjectChanges): ChangeType {
  if (changes.archived === undefined || changes.archived === before.archived) return 'project.updated';
  return changes.archived ? 'project.archived' : 'project.unarchived';
}

/**
 * A partial update by an administrator or the project's admin; renaming onto another project's name
 * is 409. A clientId other than the project's own must name an unarchived client of the workspace
 * (docs/rules.md §6 Projects): an archived client the project already has stays through later writes.
 */
export async function changeProject(db: Db, actor: Actor, projectId: string, body: ProjectUpdate): Promise<Project> {
  const found = await administeredProject(db, actor, projectId, 'projects:update');
  const changes: ProjectChanges = {};
  if (body.name !== undefined) changes.name = trimmedName(body.name);
  if (body.notes !== undefined) changes.notes = body.notes;
  if (body.billable !== undefined) changes.billable = body.billable;
  if (body.archived !== undefined) changes.archived = body.archived;
  if (body.avatar !== undefined) changes.avatar = body.avatar;
  if (body.clientId !== undefined) changes.clientId = body.clientId;
  if (body.color !== undefined) changes.color = body.color;
  const { organizationId } = actor;
  const newClientId = changes.clientId != null && changes.clientId !== found.clientId ? changes.clientId : null;
  return withConstraintProblems(
    () =>
      db.transaction().execute(async (trx) => {
        if (newClientId !== null) await assertClientForProject(trx, organizationId, newClientId);
        await updateProject(trx, organizationId, found.id, changes);
        const updated = await findProject(trx, organizationId, found.id);
        if (!updated) throw notFound('project');
        await recordChange(trx, { organizationId, type: projectChangeType(found, changes), actorId: actor.userId, data: updated });
        return updated;
      }),
    { unique: () => nameTaken(changes.name!) },
  );
}

export async function removeProject(db: Db, actor: Actor, projectId: string): Promise<void> {
  const { organizationId } = actor;
  await db.transaction().execute(async (trx) => {
    if (!(await deleteProject(trx, organizationId, projectId))) throw notFound('project');
    await recordChange(trx, { organizationId, type: 'project.deleted', actorId: actor.userId, data: { id: projectId } });
  });
}

/** Adds the projects and memberships an import brings, in the import's transaction (docs/rules.md §6 Imports). */
export async function addImportedProjects(
  trx: Trx,
  organizationId: string,
  added: { projects: ReadonlyArray<{ id: string; name: string; clientId: string | null }>; members: ReadonlyArray<{ id: string; projectId: string; userId: string }>; assignedBy: string },
): Promise<void> {
  const existing = await countProjects(trx, organizationId);
  await insertProjectRows(trx, organizationId, added.projects.map((project, index) => ({ ...project, color: defaultProjectColor(existing + index) })));
  await insertMemberRows(trx, organizationId, added.members, added.assignedBy);
}
