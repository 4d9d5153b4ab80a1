import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { Empty, operation } from '../../route-kit/schemas.js';
import { addProjectMember, changeProjectMember, projectMember, projectMembers, removeProjectMember } from './member-service.js';
import { MemberCreate, MemberParams, MemberUpdate, ProjectMember, ProjectMemberMap, ProjectParams } from './schemas.js';

const TAG = 'Project members';

export const memberRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.get(
    '/projects/:projectId/members',
    {
      config: { permission: 'members:read' },
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
      const members = await projectMembers(app.db, request.actor, request.params.projectId);
      return Object.fromEntries(members.map((member) => [member.id, member]));
    },
  );

  app.post(
    '/projects/:projectId/members',
    {
      config: { permission: 'members:write' },
      schema: operation({
        operationId: 'createProjectMember',
        tag: TAG,
        summary: 'Add a user to a project',
        description:
          'Administrators and the project\'s admins. `assignedBy` is the caller. A support session (an impersonation, ' +
          'docs/rules.md §5) cannot grant a role: role Administrator is 403 for it.',
        params: ProjectParams,
        body: MemberCreate,
        response: Type.Ref(ProjectMember),
        errors: {
          403: 'A member who is not a project admin',
          409: 'The user is already a member of the project',
          422: 'Also: `userId` names no unarchived user of this workspace',
        },
      }),
    },
    async (request) => addProjectMember(app.db, request.actor, request.params.projectId, request.body),
  );

  app.get(
    '/projects/:projectId/members/:memberId',
    {
      config: { permission: 'members:read' },
      schema: operation({
        operationId: 'getProjectMember',
        tag: TAG,
        summary: 'One member of a project',
        description:
          'An administrator reads any project\'s members; a User those of the projects they are a member of. A ' +
          'project the caller cannot see, or a member not of that project, is 404.',
        params: MemberParams,
        response: Type.Ref(ProjectMember),
      }),
    },
    async (request) => projectMember(app.db, request.actor, request.params.projectId, request.params.memberId),
  );

  app.put(
    '/projects/:projectId/members/:memberId',
    {
      config: { permission: 'members:write' },
      schema: operation({
        operationId: 'updateProjectMember',
        tag: TAG,
        summary: 'Change a member\'s role, title, tags, notes or archived flag',
        description:
          'Administrators and the project\'s admins. A support session (an impersonation, docs/rules.md §5) cannot ' +
          'change a role: role in its body at all is 403.',
        params: MemberParams,
        body: MemberUpdate,
        response: Type.Ref(ProjectMember),
        errors: { 403: 'A member who is not a project admin' },
      }),
    },
    async (request) =>
      changeProjectMember(app.db, request.actor, request.params.projectId, request.params.memberId, request.body),
  );

  app.delete(
    '/projects/:projectId/members/:memberId',
    {
      config: { permission: 'members:write' },
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
      await removeProjectMember(app.db, request.actor, request.params.projectId, request.params.memberId);
      return {};
    },
  );
};
