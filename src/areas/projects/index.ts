export { addMember, holdJoinableUser, holdProject, setMemberRole } from './membership.js';
export { findMember, findProjectForBooking, findWorkspaceUser, projectOfWorkspaceExists, type ProjectForBooking, type WorkspaceUser } from './repository.js';
export { MemberParams, ProjectParams, type Project, type ProjectMember } from './schemas.js';
export { administeredProject, readableProject } from './service.js';
