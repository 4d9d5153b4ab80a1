import type { FastifyPluginAsync } from 'fastify';
import type { Area } from '../area.js';
import { reportRoutes } from './routes.js';
import { DetailedEntry, DetailedReport } from './detail-schemas.js';
import { detailRoutes } from './detail-routes.js';
import { Report } from './schemas.js';

const routes: FastifyPluginAsync = async (app) => {
  await app.register(reportRoutes);
  await app.register(detailRoutes);
};

export const reportsArea: Area = { name: 'reports', routes, schemas: [Report, DetailedEntry, DetailedReport] };
