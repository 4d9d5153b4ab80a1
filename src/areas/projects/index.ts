export { addMember, findMember, holdJoinableUser, holdProject, isJoinableUser, setMemberRole } from './membership.js';
export { MemberParams, ProjectParams, type Project, type ProjectMember } from './schemas.js';
export { addImportedProjects, administeredProject, findProjectForBooking, projectOfWorkspaceExists, readableProject, type ProjectForBooking } from './service.js';
