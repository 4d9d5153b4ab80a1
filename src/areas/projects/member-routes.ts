import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import type { Updateable } from 'kysely';
import { isForeignKeyViolation, isUniqueViolation } from '../../db/errors.js';
import type { ProjectMembersTable } from '../../db/tables/tracking.js';
import { fromDbBool, toDbBool, toJson } from '../../db/values.js';
import { conflict, invalid, notFound } from '../../domain/errors.js';
import { Empty, operation } from '../../http/schemas.js';
import { newId } from '../../lib/ids.js';
import { nowIso } from '../../lib/time.js';
import {
  deleteMember,
  findMember,
  findWorkspaceUser,
  insertMember,
  listMembers,
  toMember,
  updateMember,
} from './repository.js';
import { administeredProject, readableProject } from './rules.js';
import { MemberCreate, MemberParams, MemberUpdate, ProjectMember, ProjectMemberMap, ProjectParams } from './schemas.js';

const TAG = 'Project members';

const unusableUser = () => invalid('/body/userId', 'must name an unarchived user of this workspace');

export const memberRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.get(
    '/projects/:projectId/members',
    {
      schema: operation({
        operationId: 'listProjectMembers',
        tag: TAG,
        summary: 'The members of a project',
        description: 'Administrators and the project\'s (unarchived) members.',
        params: ProjectParams,
        response: ProjectMemberMap,
      }),
    },
    async (request) => {
      const actor = request.actor;
      const { project } = await readableProject(app.db, actor, request.params.projectId);
      const rows = await listMembers(app.db, actor.organizationId, project.id);
      return Object.fromEntries(rows.map((row) => [row.id, toMember(row)]));
    },
  );

  app.post(
    '/projects/:projectId/members',
    {
      schema: operation({
        operationId: 'createProjectMember',
        tag: TAG,
        summary: 'Add a user to a project',
        description: 'Administrators and the project\'s admins. `assignedBy` is the caller.',
        params: ProjectParams,
        body: MemberCreate,
        response: Type.Ref(ProjectMember),
        errors: {
          403: 'A member who is not a project admin',
          409: 'The user is already a member of the project',
          422: 'Also: userId names no unarchived user of this workspace',
        },
      }),
    },
    async (request) => {
      const actor = request.actor;
      const { body } = request;
      const project = await administeredProject(app.db, actor, request.params.projectId, 'members:write');
      const user = await findWorkspaceUser(app.db, actor.organizationId, body.userId);
      if (!user || fromDbBool(user.archived)) throw unusableUser();
      const id = newId();
      const now = nowIso();
      try {
        await insertMember(app.db, {
          id,
          organization_id: actor.organizationId,
          project_id: project.id,
          user_id: user.id,
          role: body.role ?? 'User',
          archived: toDbBool(false),
          assigned_by: actor.userId,
          title: body.title?.trim() ?? null,
          notes: body.notes ?? null,
          tags: body.tags ? toJson(body.tags) : null,
          created_at: now,
          updated_at: now,
        });
      } catch (error) {
        // project_members_one_per_user decides, also between two concurrent additions.
        if (isUniqueViolation(error)) throw conflict('The user is already a member of this project.');
        // The user or the project was deleted in the meantime.
        if (isForeignKeyViolation(error)) throw unusableUser();
        throw error;
      }
      return toMember((await findMember(app.db, actor.organizationId, project.id, id))!);
    },
  );

  app.get(
    '/projects/:projectId/members/:memberId',
    {
      schema: operation({
        operationId: 'getProjectMember',
        tag: TAG,
        summary: 'One member of a project',
        params: MemberParams,
        response: Type.Ref(ProjectMember),
      }),
    },
    async (request) => {
      const actor = request.actor;
      const { project } = await readableProject(app.db, actor, request.params.projectId);
      const member = await findMember(app.db, actor.organizationId, project.id, request.params.memberId);
      if (!member) throw notFound('project member');
      return toMember(member);
    },
  );

  app.put(
    '/projects/:projectId/members/:memberId',
    {
      schema: operation({
        operationId: 'updateProjectMember',
        tag: TAG,
        summary: 'Change a member\'s role, title, tags, notes or archived flag',
        description: 'Administrators and the project\'s admins.',
        params: MemberParams,
        body: MemberUpdate,
        response: Type.Ref(ProjectMember),
        errors: { 403: 'A member who is not a project admin' },
      }),
    },
    async (request) => {
      const actor = request.actor;
      const { body } = request;
      const project = await administeredProject(app.db, actor, request.params.projectId, 'members:write');
      const member = await findMember(app.db, actor.organizationId, project.id, request.params.memberId);
      if (!member) throw notFound('project member');
      const changes: Updateable<ProjectMembersTable> = {};
      if (body.role !== undefined) changes.role = body.role;
      if (body.title !== undefined) changes.title = body.title.trim();
      if (body.notes !== undefined) changes.notes = body.notes;
      if (body.tags !== undefined) changes.tags = body.tags === null ? null : toJson(body.tags);
      if (body.archived !== undefined) changes.archived = toDbBool(body.archived === true);
      await updateMember(app.db, actor.organizationId, member.id, changes);
      const updated = await findMember(app.db, actor.organizationId, project.id, member.id);
      if (!updated) throw notFound('project member');
      return toMember(updated);
    },
  );

  app.delete(
    '/projects/:projectId/members/:memberId',
    {
      schema: operation({
        operationId: 'deleteProjectMember',
        tag: TAG,
        summary: 'Remove a member from a project, with their revenue rates',
        description: 'Administrators and the project\'s admins. The member\'s activities stay.',
        params: MemberParams,
        response: Empty,
        errors: { 403: 'A member who is not a project admin' },
      }),
    },
    async (request) => {
      const actor = request.actor;
      const project = await administeredProject(app.db, actor, request.params.projectId, 'members:write');
      if (!(await deleteMember(app.db, actor.organizationId, project.id, request.params.memberId))) {
        throw notFound('project member');
      }
      return {};
    },
  );
};
