import type { Area } from '../area.js';
import { workspaceRoutes } from './routes.js';
import { Organization } from './schemas.js';

export const workspaceArea: Area = { name: 'workspace', routes: workspaceRoutes, schemas: [Organization] };
