export { createWorkspace, releaseRetiredDomain, type CreatedWorkspace, type NewWorkspace } from './service.js';
export { countOrganizations, findWorkspaceByDomain, getOrganization, recordAutoLockedWeek } from './repository.js';
export { Organization } from './schemas.js';
