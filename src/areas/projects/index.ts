import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { Area } from '../area.js';
import { memberRoutes } from './member-routes.js';
import { projectRoutes } from './routes.js';
import { Project, ProjectMember } from './schemas.js';

const routes: FastifyPluginAsyncTypebox = async (app) => {
  await app.register(projectRoutes);
  await app.register(memberRoutes);
};

export const projectsArea: Area = { name: 'projects', routes, schemas: [Project, ProjectMember] };

export { addMember, holdJoinableUser, holdProject, setMemberRole } from './membership.js';
export { findMember, findProjectForBooking, findWorkspaceUser, projectOfWorkspaceExists, type ProjectForBooking, type WorkspaceUser } from './repository.js';
export { MemberParams, ProjectParams, type Project, type ProjectMember } from './schemas.js';
export { administeredProject, readableProject } from './service.js';
