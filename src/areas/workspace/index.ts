export {
  countOrganizations,
  createWorkspace,
  findWorkspaceByDomain,
  getOrganization,
  recordAutoLockedWeek,
  releaseRetiredDomain,
  type CreatedWorkspace,
  type NewWorkspace,
} from './service.js';
export { Organization } from './schemas.js';
