import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { Area } from '../area.js';
import { DetailedEntry, DetailedReport } from './detail-schemas.js';
import { detailRoutes } from './detail-routes.js';
import { reportRoutes } from './saved-reports-routes.js';
import { reportRunRoutes } from './run-routes.js';
import { Report, ReportResult } from './schemas.js';

const routes: FastifyPluginAsyncTypebox = async (app) => {
  await app.register(reportRoutes);
  await app.register(reportRunRoutes);
  await app.register(detailRoutes);
};

export const reportsArea: Area = { name: 'reports', routes, schemas: [Report, ReportResult, DetailedEntry, DetailedReport] };
