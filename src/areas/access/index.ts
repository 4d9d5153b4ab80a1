import type { Area } from '../area.js';
import { accessRoutes } from './routes.js';
import { ApiKey } from './schemas.js';

export const accessArea: Area = { name: 'access', routes: accessRoutes, schemas: [ApiKey] };
