import type { Area } from '../area.js';
import { reportRoutes } from './routes.js';
import { Report } from './schemas.js';

export const reportsArea: Area = { name: 'reports', routes: reportRoutes, schemas: [Report] };
