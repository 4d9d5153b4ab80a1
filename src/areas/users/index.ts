export { addFirstAdministrator, joinBySingleSignOn, joinOnSignIn, workspaceUserOfEmail } from './join-service.js';
export { preferredTimeZone } from './preference-service.js';
export { addImportedUsers } from './service.js';
