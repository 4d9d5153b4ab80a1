import type { FastifyPluginAsync } from 'fastify';
import type { Area } from '../area.js';
import { preferenceRoutes } from './preference-routes.js';
import { userRoutes } from './routes.js';
import { Preferences, User } from './schemas.js';

const routes: FastifyPluginAsync = async (app) => {
  await app.register(userRoutes);
  await app.register(preferenceRoutes);
};

export const usersArea: Area = { name: 'users', routes, schemas: [User, Preferences] };
