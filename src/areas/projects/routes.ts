import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import type { Updateable } from 'kysely';
import { isUniqueViolation } from '../../db/errors.js';
import type { ProjectsTable } from '../../db/tables/tracking.js';
import { toDbBool } from '../../db/values.js';
import { conflict, invalid, notFound } from '../../domain/errors.js';
import { sendRendered } from '../../http/json-answer.js';
import { PROJECT_ADMIN_ROLE, reachesAll } from '../../domain/policy.js';
import { Empty, operation } from '../../http/schemas.js';
import { newId } from '../../lib/ids.js';
import { nowIso } from '../../lib/time.js';
import {
  deleteProject,
  findProject,
  insertMember,
  insertProject,
  listProjectsJson,
  projectNameKey,
  toProject,
  updateProject,
} from './repository.js';
import { administeredProject, readableProject } from './rules.js';
import { Project, ProjectCreate, ProjectMap, ProjectParams, ProjectUpdate } from './schemas.js';

const TAG = 'Projects';

const nameTaken = (name: string) => conflict(`A project named "${name}" already exists in this workspace.`);

function trimmedName(name: string): string {
  const trimmed = name.trim();
  if (trimmed.length === 0) throw invalid('/body/name', 'must not be blank');
  return trimmed;
}

export const projectRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.get(
    '/projects',
    {
      schema: operation({
        operationId: 'listProjects',
        tag: TAG,
        summary: 'Projects the caller may see',
        description: 'An administrator sees every project; a User those they are an unarchived member of.',
        response: ProjectMap,
      }),
    },
    async (request, reply) => {
      const actor = request.actor;
      const entries = await listProjectsJson(app.db, actor.organizationId, reachesAll(actor, 'projects:read') ? undefined : actor.userId);
      return sendRendered(reply, entries === null ? [] : [entries]);
    },
  );

  app.post(
    '/projects',
    {
      config: { permission: 'projects:create' },
      schema: operation({
        operationId: 'createProject',
        tag: TAG,
        summary: 'Create a project; the creating administrator becomes its member with role Administrator',
        description: 'Administrators only. Names are unique per workspace, case-insensitively, after trimming.',
        body: ProjectCreate,
        response: Type.Ref(Project),
        errors: { 403: 'Not an administrator', 409: 'A project of that name exists' },
      }),
    },
    async (request) => {
      const actor = request.actor;
      const { body } = request;
      const name = trimmedName(body.name);
      const now = nowIso();
      const id = newId();
      try {
        await app.db.transaction().execute(async (trx) => {
          await insertProject(trx, {
            id,
            organization_id: actor.organizationId,
            name,
            name_key: projectNameKey(name),
            archived: toDbBool(false),
            billable: toDbBool(body.billable ?? false),
            avatar: body.avatar ?? null,
            notes: body.notes ?? null,
            created_at: now,
            updated_at: now,
          });
          await insertMember(trx, {
            id: newId(),
            organization_id: actor.organizationId,
            project_id: id,
            user_id: actor.userId,
            role: PROJECT_ADMIN_ROLE,
            archived: toDbBool(false),
            assigned_by: actor.userId,
            title: null,
            notes: null,
            tags: null,
            created_at: now,
            updated_at: now,
          });
        });
      } catch (error) {
        // projects_name_unique decides under concurrency: two creations of one name cannot both commit.
        if (isUniqueViolation(error)) throw nameTaken(name);
        throw error;
      }
      return toProject((await findProject(app.db, actor.organizationId, id))!);
    },
  );

  app.get(
    '/projects/:projectId',
    {
      schema: operation({
        operationId: 'getProject',
        tag: TAG,
        summary: 'One project',
        params: ProjectParams,
        response: Type.Ref(Project),
      }),
    },
    async (request) => toProject((await readableProject(app.db, request.actor, request.params.projectId)).project),
  );

  app.put(
    '/projects/:projectId',
    {
      schema: operation({
        operationId: 'updateProject',
        tag: TAG,
        summary: 'Change a project\'s name, notes, billable, archived or avatar',
        description: 'Administrators and the project\'s admins. Renaming onto another project\'s name is 409.',
        params: ProjectParams,
        body: ProjectUpdate,
        response: Type.Ref(Project),
        errors: { 403: 'A member who is not a project admin', 409: 'A project of that name exists' },
      }),
    },
    async (request) => {
      const actor = request.actor;
      const { body } = request;
      const project = await administeredProject(app.db, actor, request.params.projectId, 'projects:update');
      const changes: Updateable<ProjectsTable> = {};
      if (body.name !== undefined) {
        changes.name = trimmedName(body.name);
        changes.name_key = projectNameKey(changes.name);
      }
      if (body.notes !== undefined) changes.notes = body.notes;
      if (body.billable !== undefined) changes.billable = toDbBool(body.billable);
      if (body.archived !== undefined) changes.archived = toDbBool(body.archived);
      if (body.avatar !== undefined) changes.avatar = body.avatar;
      try {
        await updateProject(app.db, actor.organizationId, project.id, changes);
      } catch (error) {
        if (isUniqueViolation(error)) throw nameTaken(changes.name!);
        throw error;
      }
      const updated = await findProject(app.db, actor.organizationId, project.id);
      if (!updated) throw notFound('project');
      return toProject(updated);
    },
  );

  app.delete(
    '/projects/:projectId',
    {
      config: { permission: 'projects:delete' },
      schema: operation({
        operationId: 'deleteProject',
        tag: TAG,
        summary: 'Delete a project for good',
        description:
          'Administrators only. Its members and their revenue rates are deleted; its activities are kept with `projectId: null`.',
        params: ProjectParams,
        response: Empty,
        errors: { 403: 'Not an administrator' },
      }),
    },
    async (request) => {
      if (!(await deleteProject(app.db, request.workspace.id, request.params.projectId))) throw notFound('project');
      return {};
    },
  );
};
