export { addFirstAdministrator, joinBySingleSignOn, workspaceUserOfEmail } from './join-service.js';
export { preferredTimeZone } from './preference-service.js';
