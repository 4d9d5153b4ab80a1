import type { Area } from '../area.js';
import { workspaceRoutes } from './routes.js';
import { Organization } from './schemas.js';

export const workspaceArea: Area = { name: 'workspace', routes: workspaceRoutes, schemas: [Organization] };

export { createWorkspace, releaseRetiredDomain, type CreatedWorkspace, type NewWorkspace } from './service.js';
export { countOrganizations, findWorkspaceByDomain, getOrganization, recordAutoLockedWeek } from './repository.js';
export { Organization } from './schemas.js';
