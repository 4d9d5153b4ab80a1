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
