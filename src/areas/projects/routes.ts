import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { sendRendered } from '../../route-kit/json-answer.js';
import { Empty, operation } from '../../route-kit/schemas.js';
import { Project, ProjectCreate, ProjectMap, ProjectParams, ProjectUpdate } from './schemas.js';
import { changeProject, createProject, project, projectListing, removeProject } from './service.js';

const TAG = 'Projects';
const CLIENT_AND_COLOR =
  '`clientId` names an unarchived client of this workspace, or null for none (an unknown, another workspace\'s or an ' +
  'archived client is 422 at /body/clientId). `color` is lowercase `#rrggbb` (anything else is 422 at /body/color).';
const PALETTE_RULE =
  'Without `color` the project takes the palette\'s color at the number of projects the workspace has, counted when it is ' +
  'created, round again after the twelfth: #ef4444, #f97316, #f59e0b, #84cc16, #22c55e, #14b8a6, #06b6d4, #3b82f6, ' +
  '#6366f1, #8b5cf6, #d946ef, #ec4899.';
const CLIENT_AND_COLOR_422 = 'Also: a `clientId` that names no unarchived client of this workspace, or a `color` that is not lowercase #rrggbb';

export const projectRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.get(
    '/projects',
    {
      config: { permission: 'projects:read' },
      schema: operation({
        operationId: 'listProjects',
        tag: TAG,
        summary: 'Projects the caller may see',
        description: 'An administrator sees every project; a User those they are an unarchived member of.',
        response: ProjectMap,
      }),
    },
    async (request, reply) => {
      const entries = await projectListing(app.db, request.actor);
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
        description: `Administrators only. Names are unique per workspace, case-insensitively, after trimming. ${CLIENT_AND_COLOR} ${PALETTE_RULE}`,
        body: ProjectCreate,
        response: Type.Ref(Project),
        errors: { 403: 'Not an administrator', 409: 'A project of that name exists', 422: CLIENT_AND_COLOR_422 },
      }),
    },
    async (request) => createProject(app.db, request.actor, request.body),
  );

  app.get(
    '/projects/:projectId',
    {
      config: { permission: 'projects:read' },
      schema: operation({
        operationId: 'getProject',
        tag: TAG,
        summary: 'One project',
        description:
          'An administrator reads any project of the workspace; a User the projects they are a member of. Any other ' +
          'project is 404, as is an unknown id.',
        params: ProjectParams,
        response: Type.Ref(Project),
      }),
    },
    async (request) => project(app.db, request.actor, request.params.projectId),
  );

  app.put(
    '/projects/:projectId',
    {
      config: { permission: 'projects:update' },
      schema: operation({
        operationId: 'updateProject',
        tag: TAG,
        summary: 'Change a project\'s name, notes, billable, archived or avatar',
        description:
          'Administrators and the project\'s admins. Renaming onto another project\'s name is 409. Also `clientId` (null unsets ' +
          `it) and \`color\`. ${CLIENT_AND_COLOR} A client archived after the project was given it stays, also when a PUT sends the same clientId.`,
        params: ProjectParams,
        body: ProjectUpdate,
        response: Type.Ref(Project),
        errors: { 403: 'A member who is not a project admin', 409: 'A project of that name exists', 422: CLIENT_AND_COLOR_422 },
      }),
    },
    async (request) => changeProject(app.db, request.actor, request.params.projectId, request.body),
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
      await removeProject(app.db, request.actor, request.params.projectId);
      return {};
    },
  );
};
