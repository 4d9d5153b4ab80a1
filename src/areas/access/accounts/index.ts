// What the rest of access uses of accounts: the person behind an email, in one workspace or in all.
export { accountOfEmail, activeUserOfEmail, workspacesOfAccountEmail } from './account-service.js';
